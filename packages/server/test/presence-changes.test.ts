import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asSeenBy, OFFLINE, type Presence } from "../src/services/presence/presence.js";
import { presenceChanges, presenceEvent, samePresence } from "../src/services/presence/changes.js";

const online: Presence = { presence: "online", experienceId: "" };
const inGame = (experienceId: string): Presence => ({ presence: "in_game", experienceId });

describe("presenceEvent", () => {
  it("should name the experience only while in game", () => {
    expect(presenceEvent("usr_a", inGame("exp_1"))).toEqual({ type: "presence", userId: "usr_a", presence: "in_game", experienceId: "exp_1" });
    expect(presenceEvent("usr_a", online)).toEqual({ type: "presence", userId: "usr_a", presence: "online" });
    expect(presenceEvent("usr_a", { presence: "offline", experienceId: "exp_stale" })).toEqual({ type: "presence", userId: "usr_a", presence: "offline" });
    // A game the viewer may not see: in game, and nothing more.
    expect(presenceEvent("usr_a", asSeenBy(inGame("exp_1"), false))).toEqual({ type: "presence", userId: "usr_a", presence: "in_game" });
  });
});

describe("samePresence", () => {
  it("should tell in-game presences apart by experience and ignore the experience otherwise", () => {
    expect(samePresence(inGame("exp_1"), inGame("exp_1"))).toBe(true);
    expect(samePresence(inGame("exp_1"), inGame("exp_2"))).toBe(false);
    expect(samePresence(online, { presence: "online", experienceId: "exp_1" })).toBe(true);
    expect(samePresence(online, OFFLINE)).toBe(false);
  });
});

describe("presenceChanges", () => {
  it("should tell friends the presence and a former friend a last offline, skipping whoever already knows", () => {
    const told: Record<string, Presence> = { usr_knows: online, usr_former: online, usr_stale: inGame("exp_1") };
    const changes = presenceChanges({
      current: online,
      friends: new Set(["usr_knows", "usr_new", "usr_stale"]),
      viewers: ["usr_knows", "usr_new", "usr_stale", "usr_former", "usr_new"],
      seesExperience: () => true,
      told: (viewer) => told[viewer] ?? OFFLINE,
    });
    expect(changes).toEqual([
      { to: ["usr_new", "usr_stale"], presence: online },
      { to: ["usr_former"], presence: OFFLINE },
    ]);
  });

  it("should tell no one anything when every viewer already knows", () => {
    expect(presenceChanges({ current: OFFLINE, friends: new Set(["usr_b"]), viewers: ["usr_b", "usr_c"], seesExperience: () => true, told: () => OFFLINE })).toEqual([]);
  });

  it("should leave every viewer knowing what they may see, telling each at most once and only on a change", () => {
    const viewersArb = fc.dictionary(viewerArb, fc.record({ friend: fc.boolean(), sees: fc.boolean(), told: presenceArb }));
    fc.assert(fc.property(presenceArb, viewersArb, (current, viewers) => {
      const told = (viewer: string) => viewers[viewer]?.told ?? OFFLINE;
      const friends = new Set(Object.keys(viewers).filter((v) => viewers[v]!.friend));
      const seesExperience = (viewer: string) => viewers[viewer]!.sees;
      const changes = presenceChanges({ current, friends, viewers: Object.keys(viewers), seesExperience, told });
      const sent = new Map<string, Presence>();
      for (const change of changes) {
        expect(change.to.length).toBeGreaterThan(0);
        for (const viewer of change.to) {
          expect(sent.has(viewer)).toBe(false);
          sent.set(viewer, change.presence);
        }
      }
      for (const viewer of Object.keys(viewers)) {
        const want = friends.has(viewer) ? asSeenBy(current, seesExperience(viewer)) : OFFLINE;
        if (sent.has(viewer)) expect(samePresence(told(viewer), want)).toBe(false);
        expect(samePresence(sent.get(viewer) ?? told(viewer), want)).toBe(true);
      }
    }));
  });
});

const viewerArb = fc.constantFrom("usr_a", "usr_b", "usr_c", "usr_d", "usr_e");
const presenceArb: fc.Arbitrary<Presence> = fc.oneof(
  fc.constant(OFFLINE),
  fc.constant(online),
  fc.constantFrom("exp_1", "exp_2", "").map(inGame),
);
