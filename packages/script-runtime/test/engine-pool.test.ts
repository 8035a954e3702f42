import { describe, expect, it } from "vitest";
import { CREATOR_TENANT, createEnginePool } from "../src/engine/engine-pool.js";

const MIB = 1024 * 1024;

describe("engine pool", () => {
  it("should give each tenant cells of its own, fill a cell before making another, and drop a player's empty cell", async () => {
    const pool = await createEnginePool({ cellBytes: 2 * MIB });
    const c1 = await pool.acquire(MIB, CREATOR_TENANT);
    const c2 = await pool.acquire(MIB, CREATOR_TENANT);
    expect(c2).toBe(c1);
    const c3 = await pool.acquire(MIB, CREATOR_TENANT);
    expect(c3).not.toBe(c1);
    const p1 = await pool.acquire(MIB, "player a");
    const p2 = await pool.acquire(MIB, "player b");
    expect(new Set([c1, c3, p1, p2]).size).toBe(4);
    expect([pool.cells(), pool.cells(CREATOR_TENANT), pool.cells("player a")]).toEqual([4, 2, 1]);

    pool.release(p1, MIB);
    expect(pool.cells("player a")).toBe(0);
    pool.release(c3, MIB);
    expect(pool.cells(CREATOR_TENANT), "the creator's cells stay for reloads").toBe(2);
    expect(await pool.acquire(MIB, CREATOR_TENANT)).toBe(c3);
  });
});
