import { PlayfieldError } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { presenceFeed } from "../src/services/presence/feed.js";
import { sweepSessions } from "../src/services/session/roster.js";
import { testServer } from "./fixtures.js";
import { connect, players, presenceAbout, type Connection } from "./presence-fixtures.js";
import { addExperience } from "./session-world.js";

/*
 * Random moves of a few users (connect, disconnect, join, leave, silence,
 * friend, unfriend, block, unblock, showOnlineStatus): after each, the last
 * `presence` event each open connection heard about each other user equals
 * what the connection's user reads in ListFriends (`offline` for anyone not
 * listed, and when nothing was heard), and no connection hears the same
 * presence of a user twice in a row.
 */

const USERS = 3;

describe("presence events", () => {
  it("should leave every connection with the presence ListFriends reports, told once per change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 16 }), async (moves) => {
        await using t = await testServer("in-process", { sessions: { silenceMs: 1000 } });
        const experiences = [(await addExperience(t.server)).experience.id, (await addExperience(t.server)).experience.id];
        const people = await players(t, USERS);
        const links: Connection[][] = people.map(() => []);
        const sessions: string[] = people.map(() => "");
        // A refused move (blocked, not friends) changes nothing: the check after it still holds.
        const ignore = (reason: unknown) => { if (!(reason instanceof PlayfieldError)) throw reason; };

        for (const m of moves) {
          const p = people[m.user]!;
          const other = people[m.other]!;
          switch (m.kind) {
            case "connect":
              if (links[m.user]!.length < 2) links[m.user]!.push(await connect(t, "in-process", p.accessToken));
              break;
            case "disconnect": {
              const mine = links[m.user]!;
              if (mine.length > 0) await mine.splice(m.other % mine.length, 1)[0]!.close();
              break;
            }
            case "join":
              sessions[m.user] = (await p.client.session.join({ experienceId: experiences[m.other % 2]! }).catch(ignore))?.sessionId ?? sessions[m.user]!;
              break;
            case "leave":
              if (sessions[m.user]) await p.client.session.leave({ sessionId: sessions[m.user]! });
              break;
            case "silence":
              t.server.clock.advance(1001);
              await sweepSessions(t.server.deps);
              break;
            case "show":
              await p.client.identity.updateSettings({ showOnlineStatus: m.other % 2 === 0 });
              break;
            case "friend":
              if (m.user === m.other) break;
              await p.client.social.sendFriendRequest({ userId: other.userId }).catch(ignore);
              await other.client.social.acceptFriendRequest({ userId: p.userId }).catch(ignore);
              break;
            case "unfriend":
              if (m.user !== m.other) await p.client.social.removeFriend({ userId: other.userId }).catch(ignore);
              break;
            case "block":
              if (m.user !== m.other) await p.client.social.block({ userId: other.userId }).catch(ignore);
              break;
            case "unblock":
              if (m.user !== m.other) await p.client.social.unblock({ userId: other.userId }).catch(ignore);
              break;
          }
          await presenceFeed(t.server.deps).settled();

          for (const [v, viewer] of people.entries()) {
            if (links[v]!.length === 0) continue;
            const { friends } = await viewer.client.social.listFriends({});
            const reported = new Map(friends.map((f) => [f.user!.id, f.presence === "in_game" ? `in_game:${f.experienceId}` : f.presence]));
            for (const link of links[v]!) {
              for (const subject of people) {
                if (subject === viewer) continue;
                const heard = presenceAbout(link, subject.userId);
                expect(heard.at(-1) ?? "offline", `${m.kind}: what user ${v} heard of ${subject.userId}`).toBe(reported.get(subject.userId) ?? "offline");
                for (let i = 1; i < heard.length; i++) expect(heard[i], `told twice: ${heard.join(", ")}`).not.toBe(heard[i - 1]);
              }
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  }, 60_000);
});

/** The moves, weighted so that connections and friendships are common enough for the others to matter. */
const KINDS = [
  ["connect", 4], ["friend", 4], ["join", 3], ["disconnect", 2], ["unfriend", 2], ["leave", 2],
  ["silence", 1], ["show", 2], ["block", 1], ["unblock", 1],
] as const;

/** One move: `other` is the other user, or picks a connection, an experience, a setting. */
const move = fc.record({
  kind: fc.oneof(...KINDS.map(([kind, weight]) => ({ arbitrary: fc.constant(kind), weight }))),
  user: fc.nat({ max: USERS - 1 }),
  other: fc.nat({ max: USERS - 1 }),
});
