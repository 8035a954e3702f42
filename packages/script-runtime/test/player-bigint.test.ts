import { describe, expect, it } from "vitest";
import { entry, list, newRuntime } from "./helpers.js";

const PLAYER = { player: "p1", roles: [], owner: true };

/**
 * BigInt work runs natively, one operation a step the meter never sees
 * (issue 30, case 2: a player's `String(1n << 998000n)` ten times took
 * 27.5 s of one tick for 56 fuel units). Players' scripts get no BigInt.
 */
describe("players' scripts have no BigInt", () => {
  it("should refuse a player's BigInt literal at moderation", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "big", source: "export default { onTick() { const x = 1n << 998000n; for (let i = 0; i < 10; i++) String(x) } }", ...PLAYER });
    await runtime.run("script.load", { name: "hex", source: "export default { onTick() { this.state.x = typeof 0x10n } }", ...PLAYER });
    await runtime.step(1);
    const { log, scripts } = await list(runtime);
    expect(scripts).toEqual([]);
    expect(log.filter((l) => l.includes("BigInt literal"))).toHaveLength(2);
  });

  it("should give a player's script no other way to make a BigInt", async () => {
    const runtime = newRuntime();
    const ways = ["globalThis['Big' + 'Int'](1)", "new globalThis['BigUint64' + 'Array'](1)[0]", "new DataView(new ArrayBuffer(8)).getBigInt64(0)", "new globalThis['BigInt64' + 'Array'](1)"];
    for (const [i, way] of ways.entries()) await runtime.run("script.load", { name: `way${i}`, source: `export default { onTick() { this.state.v = typeof (${way}) } }`, ...PLAYER });
    await runtime.step(1);
    for (let i = 0; i < ways.length; i++) expect((await entry(runtime, `way${i}`)).last_fault, ways[i]).toMatch(/^onTick: TypeError: /);
  });

  it("should keep BigInt for the game's own scripts and for players' strings without literals", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "creator", source: "export default { onTick() { this.state.x = String(2n ** 64n) } }" });
    await runtime.run("script.load", { name: "text", source: "export default { onTick() { this.state.x = 'version 2' } }", ...PLAYER });
    await runtime.step(1);
    expect(await entry(runtime, "creator")).toMatchObject({ faults: 0 });
    expect(await entry(runtime, "text")).toMatchObject({ faults: 0 });
  });
});
