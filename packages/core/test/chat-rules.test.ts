import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { channelFor, conversationKey, dmKey, dmParticipants, parseChannel } from "../src/domain/chat-channel.js";
import { createDenyListFilter } from "../src/domain/chat-filter.js";
import { channelRefusal, ChatRefusal, dmRefusal, mayMessage, type DmFacts, type WhoCanMessage } from "../src/domain/chat-permission.js";
import { readClientFrame } from "../src/realtime/read-client-frame.js";
import { advanceMarker, nextPosition, unreadAfter } from "../src/domain/chat-unread.js";

const userId = fc.stringMatching(/^usr_[A-Za-z0-9_-]{1,12}$/);

describe("parseChannel", () => {
  it("should read dm, group and session channels and refuse anything else", () => {
    expect(parseChannel("dm:usr_1")).toEqual({ kind: "dm", id: "usr_1" });
    expect(parseChannel("group:grp_1")).toEqual({ kind: "group", id: "grp_1" });
    expect(parseChannel("session:gs_1")).toEqual({ kind: "session", id: "gs_1" });
    for (const bad of ["", "dm:", "room:1", "dm:a:b", "dm:a b", "DM:usr_1", `dm:${"x".repeat(101)}`]) expect(parseChannel(bad), bad).toBeNull();
  });
});

describe("conversationKey", () => {
  it("should give both sides of a DM the same key, and render each side's channel as the other user", () => {
    fc.assert(fc.property(userId, userId, (a, b) => {
      fc.pre(a !== b);
      const key = conversationKey({ kind: "dm", id: b }, a);
      expect(conversationKey({ kind: "dm", id: a }, b)).toBe(key);
      expect(key).toBe(dmKey(b, a));
      expect(new Set(dmParticipants(key))).toEqual(new Set([a, b]));
      expect(channelFor(key, a)).toBe(`dm:${b}`);
      expect(channelFor(key, b)).toBe(`dm:${a}`);
    }));
  });

  it("should keep group and session channels as they are named", () => {
    expect(conversationKey({ kind: "group", id: "grp_1" }, "usr_a")).toBe("group:grp_1");
    expect(channelFor("session:gs_1", "usr_a")).toBe("session:gs_1");
    expect(dmParticipants("group:grp_1")).toBeNull();
  });
});

const party = (id: string, over: Partial<{ guest: boolean; child: boolean }> = {}) => ({ id, guest: false, child: false, ...over });
const facts = (over: Partial<DmFacts> = {}): DmFacts => ({
  sender: party("a"), recipient: { ...party("b"), whoCanMessage: "everyone" }, friends: false, blockedBy: false, youBlocked: false, ...over,
});

describe("dmRefusal", () => {
  it("should allow adults who accept everyone, and refuse guests, oneself, blocks and closed settings", () => {
    expect(dmRefusal(facts())).toBeNull();
    expect(dmRefusal(facts({ sender: party("a", { guest: true }) }))).toBe(ChatRefusal.Guest);
    expect(dmRefusal(facts({ recipient: { ...party("a"), whoCanMessage: "everyone" } }))).toBe(ChatRefusal.Self);
    expect(dmRefusal(facts({ blockedBy: true, youBlocked: true }))).toBe(ChatRefusal.BlockedBy);
    expect(dmRefusal(facts({ youBlocked: true }))).toBe(ChatRefusal.YouBlocked);
    expect(dmRefusal(facts({ recipient: { ...party("b", { guest: true }), whoCanMessage: "friends" }, friends: true }))).toBe(ChatRefusal.RecipientGuest);
    expect(dmRefusal(facts({ recipient: { ...party("b"), whoCanMessage: "friends" } }))).toBe(ChatRefusal.NotAccepting);
    expect(dmRefusal(facts({ recipient: { ...party("b"), whoCanMessage: "nobody" }, friends: true }))).toBe(ChatRefusal.NotAccepting);
  });

  it("should let an under-13 user on either side exchange DMs with friends only, whatever the setting", () => {
    fc.assert(fc.property(fc.boolean(), fc.boolean(), fc.constantFrom<WhoCanMessage>("everyone", "friends"), (senderChild, recipientChild, setting) => {
      fc.pre(senderChild || recipientChild);
      const base = { sender: party("a", { child: senderChild }), recipient: { ...party("b", { child: recipientChild }), whoCanMessage: setting } };
      expect(dmRefusal(facts({ ...base, friends: true }))).toBeNull();
      expect(dmRefusal(facts({ ...base, friends: false }))).not.toBeNull();
    }));
  });

  it("should never allow a DM across a block, from a guest or to a guest", () => {
    const arb = fc.record({
      sender: fc.record({ id: fc.constant("a"), guest: fc.boolean(), child: fc.boolean() }),
      recipient: fc.record({ id: fc.constant("b"), guest: fc.boolean(), child: fc.boolean(), whoCanMessage: fc.constantFrom<WhoCanMessage>("everyone", "friends", "nobody") }),
      friends: fc.boolean(), blockedBy: fc.boolean(), youBlocked: fc.boolean(),
    });
    fc.assert(fc.property(arb, (f) => {
      const allowed = dmRefusal(f) === null;
      if (f.blockedBy || f.youBlocked || f.sender.guest || f.recipient.guest) expect(allowed).toBe(false);
      if (allowed) expect(mayMessage(f.recipient.whoCanMessage, f.recipient.child, f.friends)).toBe(true);
    }));
  });
});

describe("channelRefusal", () => {
  it("should let members who are not guests write", () => {
    expect(channelRefusal(party("a"), true)).toBeNull();
    expect(channelRefusal(party("a"), false)).toBe(ChatRefusal.NotMember);
    expect(channelRefusal(party("a", { guest: true }), true)).toBe(ChatRefusal.Guest);
  });
});

/** The chat text rule as the server applies it: a chat_send frame read through the core's schema. */
function checkChatText(text: unknown): { ok: true; text: string } | { ok: false; error: string } {
  const reading = readClientFrame(JSON.stringify({ type: "chat_send", channel: "dm:u1", clientMessageId: "c", text }));
  if (reading.kind === "frame" && reading.frame.type === "chat_send") return { ok: true, text: reading.frame.text };
  return { ok: false, error: reading.kind === "refused" ? reading.error.rawMessage : reading.kind };
}

describe("chat text (chat_send's text)", () => {
  it("should trim, turn CRLF into LF, and count characters as code points", () => {
    expect(checkChatText("  hi\r\nthere ")).toEqual({ ok: true, text: "hi\nthere" });
    expect(checkChatText("😀".repeat(500))).toMatchObject({ ok: true });
    expect(checkChatText("😀".repeat(501))).toEqual({ ok: false, error: "text: at most 500 characters" });
  });

  it("should refuse empty text, control characters, bidi overrides and too many lines", () => {
    expect(checkChatText(undefined)).toEqual({ ok: false, error: "text: required" });
    expect(checkChatText(" \n ")).toEqual({ ok: false, error: "text: required" });
    expect(checkChatText("a\u0000b")).toEqual({ ok: false, error: "text: no control characters" });
    expect(checkChatText("a\u202eb")).toEqual({ ok: false, error: "text: no control characters" });
    expect(checkChatText(Array(21).fill("x").join("\n"))).toEqual({ ok: false, error: "text: at most 20 lines" });
    expect(checkChatText("tab\tok")).toMatchObject({ ok: true });
  });

  it("should answer a text within the limits for any input it accepts", () => {
    fc.assert(fc.property(fc.string({ maxLength: 600, unit: "grapheme" }), (input) => {
      const result = checkChatText(input);
      if (!result.ok) return;
      expect(result.text).toBe(result.text.trim());
      expect([...result.text].length).toBeLessThanOrEqual(500);
      expect(result.text.length).toBeGreaterThan(0);
    }));
  });
});

describe("createDenyListFilter", () => {
  const filter = createDenyListFilter();

  it("should mask whole denied words in any case for child-safe audiences only", () => {
    expect(filter.filter("Well DAMN, that shit", { childSafe: true })).toBe("Well ####, that ####");
    expect(filter.filter("Well DAMN, that shit", { childSafe: false })).toBe("Well DAMN, that shit");
    // Words that contain a denied word are left alone.
    expect(filter.filter("class assessment in Scunthorpe", { childSafe: true })).toBe("class assessment in Scunthorpe");
  });

  it("should mask e-mail addresses and phone-like digit runs for child-safe audiences", () => {
    expect(filter.filter("mail me at kid@example.com or 555-123-4567", { childSafe: true })).toBe("mail me at ############### or ############");
    expect(filter.filter("level 12, score 123456", { childSafe: true })).toBe("level 12, score 123456");
  });

  it("should take its own words, and mask for everyone when asked", () => {
    const own = createDenyListFilter({ words: ["banana"], everyone: true, contactDetails: false });
    expect(own.filter("Banana split, call 5551234567", { childSafe: false })).toBe("###### split, call 5551234567");
  });

  it("should keep the length and everything but the masked characters", () => {
    fc.assert(fc.property(fc.array(fc.constantFrom("damn", "hello", "Crap", "ok", "🙂", " ", ",", "x1"), { maxLength: 20 }), (parts) => {
      const text = parts.join(" ");
      const out = filter.filter(text, { childSafe: true });
      expect([...out].length).toBe([...text].length);
      expect(out.toLowerCase()).not.toMatch(/(^|[^a-z])(damn|crap)([^a-z]|$)/);
      [...out].forEach((ch, i) => { if (ch !== "#") expect(ch).toBe([...text][i]); });
    }));
  });
});

describe("nextPosition", () => {
  it("should give strictly increasing positions, never behind the clock", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: 1, maxLength: 50 }), (times) => {
      let last = 0;
      for (const now of times) {
        const pos = nextPosition(last, now);
        expect(pos).toBeGreaterThan(last);
        expect(pos).toBeGreaterThanOrEqual(now);
        last = pos;
      }
    }));
  });
});

describe("unreadAfter", () => {
  it("should count from the read marker, and not before the millisecond a member joined", () => {
    expect(unreadAfter(0, 0)).toBe(0);
    expect(unreadAfter(500, 100)).toBe(500);
    expect(unreadAfter(0, 100)).toBe(99);
    expect(advanceMarker(500, 300)).toBe(500);
    expect(advanceMarker(300, 500)).toBe(500);
  });
});
