import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applySpend, planSpend, spendable } from "../src/domain/wallet-math.js";
import { splitSale } from "../src/domain/sale-split.js";
import { canMovePayout, creditsToUsd, PAYOUT_MOVES, returnsCredits } from "../src/domain/payout-rules.js";
import { averageSessionSeconds, DAY_MS, dailySeries, day1Retention, dayKey, dayWindow, visitsByDay } from "../src/domain/analytics-windows.js";

const credits = fc.integer({ min: 0, max: 1_000_000_000 });

describe("planSpend", () => {
  it("should take purchased first, then earned, never pending", () => {
    expect(planSpend({ purchased: 30, earned: 100, pending: 500 }, 50)).toEqual({ fromPurchased: 30, fromEarned: 20 });
    expect(planSpend({ purchased: 80, earned: 100, pending: 0 }, 50)).toEqual({ fromPurchased: 50, fromEarned: 0 });
    expect(planSpend({ purchased: 10, earned: 10, pending: 1000 }, 21)).toBeNull();
  });

  it("should pay exactly the price and leave no bucket negative", () => {
    fc.assert(fc.property(credits, credits, credits, credits, (purchased, earned, pending, price) => {
      const wallet = { purchased, earned, pending };
      const plan = planSpend(wallet, price);
      if (plan === null) {
        expect(spendable(wallet)).toBeLessThan(price);
        return;
      }
      expect(plan.fromPurchased + plan.fromEarned).toBe(price);
      const after = applySpend(wallet, plan);
      expect(after.purchased).toBeGreaterThanOrEqual(0);
      expect(after.earned).toBeGreaterThanOrEqual(0);
      expect(after.pending).toBe(pending);
      // Earned is touched only once purchased is used up.
      if (plan.fromEarned > 0) expect(after.purchased).toBe(0);
    }));
  });
});

describe("splitSale", () => {
  it("should give 70 % to the creator and 10 % to another creator's experience for avatar items only", () => {
    expect(splitSale({ price: 100, avatarItem: true, creatorId: "a", sellingCreatorId: "b" })).toEqual({ creatorShare: 70, experienceShare: 10, fee: 20 });
    expect(splitSale({ price: 100, avatarItem: true, creatorId: "a", sellingCreatorId: "a" })).toEqual({ creatorShare: 70, experienceShare: 0, fee: 30 });
    expect(splitSale({ price: 100, avatarItem: false, creatorId: "a", sellingCreatorId: "b" })).toEqual({ creatorShare: 70, experienceShare: 0, fee: 30 });
    expect(splitSale({ price: 9, avatarItem: true, creatorId: "a", sellingCreatorId: "b" })).toEqual({ creatorShare: 6, experienceShare: 0, fee: 3 });
  });

  it("should never create or lose a credit, and never pay a share above its percentage", () => {
    fc.assert(fc.property(credits, fc.boolean(), fc.constantFrom(null, "a", "b"), (price, avatarItem, sellingCreatorId) => {
      const s = splitSale({ price, avatarItem, creatorId: "a", sellingCreatorId });
      expect(s.creatorShare + s.experienceShare + s.fee).toBe(price);
      expect(s.creatorShare * 100).toBeLessThanOrEqual(price * 70);
      expect(s.experienceShare * 100).toBeLessThanOrEqual(price * 10);
      expect(Math.min(s.creatorShare, s.experienceShare, s.fee)).toBeGreaterThanOrEqual(0);
    }));
  });
});

describe("creditsToUsd", () => {
  it("should convert at 0.0038 USD a credit with exact decimals", () => {
    expect(creditsToUsd(1)).toBe("0.0038");
    expect(creditsToUsd(1000)).toBe("3.80");
    expect(creditsToUsd(1001)).toBe("3.8038");
    expect(creditsToUsd(0)).toBe("0.00");
    expect(creditsToUsd(2n ** 62n)).toBe("17524406870024074.0352");
  });

  it("should read back as credits × 38 ten-thousandths", () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (c) => {
      const [whole, fraction] = creditsToUsd(c).split(".");
      expect(BigInt(whole!) * 10_000n + BigInt(fraction!.padEnd(4, "0"))).toBe(c * 38n);
      expect(fraction!.length >= 2 && fraction!.length <= 4).toBe(true);
    }));
  });
});

describe("canMovePayout", () => {
  it("should allow only the spec's moves, and return credits on failed and reversed", () => {
    expect(canMovePayout("requested", "processing")).toBe(true);
    expect(canMovePayout("processing", "paid")).toBe(true);
    expect(canMovePayout("processing", "failed")).toBe(true);
    expect(canMovePayout("paid", "reversed")).toBe(true);
    expect(canMovePayout("requested", "paid")).toBe(false);
    expect(canMovePayout("failed", "processing")).toBe(false);
    expect(Object.values(PAYOUT_MOVES).flat().filter(returnsCredits).sort()).toEqual(["failed", "reversed"]);
  });
});

describe("analytics windows", () => {
  it("should key each time by its UTC day as Date writes it, whatever day was keyed before", () => {
    // Times from before 1970 to past year 9999, in any order: the key of the last day asked for is remembered.
    fc.assert(fc.property(fc.array(fc.integer({ min: -1e14, max: 3e14 }), { minLength: 1, maxLength: 20 }), (times) => {
      for (const t of [...times, ...times.map((x) => x + 1)]) expect(dayKey(t)).toBe(new Date(t).toISOString().slice(0, 10));
    }));
  });

  const now = Date.UTC(2026, 2, 10, 15);
  it("should cover whole UTC days ending today, oldest first", () => {
    const w = dayWindow(now, 3);
    expect(w.days).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
    expect(w.start).toBe(Date.UTC(2026, 2, 8));
    expect(dailySeries(w, new Map([["2026-03-09", 4]]))).toEqual([
      { date: "2026-03-08", value: 0 }, { date: "2026-03-09", value: 4 }, { date: "2026-03-10", value: 0 },
    ]);
  });

  it("should count visits and unique players per day, and average finished sessions", () => {
    const t = Date.UTC(2026, 2, 9, 1);
    const plays = [
      { userId: "a", joinedAt: t, leftAt: t + 10_000 },
      { userId: "a", joinedAt: t + 1, leftAt: t + 30_001 },
      { userId: "b", joinedAt: t + DAY_MS, leftAt: null },
    ];
    const { visits, uniquePlayers } = visitsByDay(plays);
    expect([...visits]).toEqual([[dayKey(t), 2], [dayKey(t + DAY_MS), 1]]);
    expect([...uniquePlayers]).toEqual([[dayKey(t), 1], [dayKey(t + DAY_MS), 1]]);
    expect(averageSessionSeconds(plays)).toBe(20);
    expect(averageSessionSeconds([])).toBe(0);
  });

  it("should measure day-1 retention as a share of first-day players, 0 to 100", () => {
    const w = dayWindow(now, 5);
    const on = (day: number, userId: string) => ({ userId, joinedAt: w.start + day * DAY_MS + 1000, leftAt: null });
    expect(day1Retention([on(0, "a"), on(1, "a"), on(0, "b"), on(2, "b"), on(1, "c"), on(2, "c")], w)).toBeCloseTo(200 / 3);
    // Players first seen yesterday (day 3) are not judged while today (day 4) is not over.
    expect(day1Retention([on(3, "d"), on(4, "d")], w)).toBe(0);
    expect(day1Retention([], w)).toBe(0);
    fc.assert(fc.property(fc.array(fc.record({ day: fc.nat(4), user: fc.constantFrom("a", "b", "c", "d") })), (xs) => {
      const r = day1Retention(xs.map((x) => on(x.day, x.user)), w);
      expect(r >= 0 && r <= 100).toBe(true);
    }));
  });
});
