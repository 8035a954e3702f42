import { describe, expect, it } from "vitest";
import { createReferenceWorld } from "../src/kinds/reference-world.js";
import { newRuntime } from "./helpers.js";

/**
 * A method's rate is counted on the host's simulated clock: whatever time a
 * script writes into its call, ten calls of `announce` (2 a second) within
 * one tick let two through.
 */
describe("host-side clocks", () => {
  it("should count a JavaScript script's calls at the host's time, whatever an Array.prototype.toJSON override writes", async () => {
    const world = createReferenceWorld();
    const runtime = newRuntime({ kinds: world });
    const source = `export default { onLoad() {
      let t = 0;
      // The call's arguments go to the host as JSON: this rewrites their last element, the call's time.
      Array.prototype.toJSON = function () { return this.length === 4 ? [this[0], this[1], this[2], (t += 5000)] : Array.from(this) };
      for (let i = 0; i < 10; i++) { try { game.get("world-1").announce("hi " + i) } catch (e) {} }
    } }`;
    await runtime.run("script.load", { name: "forger", source });
    await runtime.step(1);
    expect(world.messages).toEqual([["all", "hi 0"], ["all", "hi 1"]]);
  });

  it("should count a Python script's calls at the host's time, whatever time it passes to playfield._call", async () => {
    const world = createReferenceWorld();
    const runtime = newRuntime({ kinds: world });
    const source = [
      "import playfield",
      "def on_load(self, reloaded):",
      "    for i in range(10):",
      "        try:",
      "            playfield._call('call', ['world-1', 'announce', ['hi %d' % i], i * 5000])",
      "        except Exception:",
      "            pass",
    ].join("\n");
    await runtime.run("script.load", { name: "forger", language: "py", source });
    await runtime.step(1);
    expect(world.messages).toEqual([["all", "hi 0"], ["all", "hi 1"]]);
  });

  it("should let calls through again a simulated second later", async () => {
    const world = createReferenceWorld();
    const runtime = newRuntime({ kinds: world });
    await runtime.run("script.load", { name: "talker", source: "export default { onTick() { try { game.get('world-1').announce('t' + Date.now()) } catch (e) {} } }" });
    await runtime.run("script.load", { name: "talker_py", language: "py", source: "import time\nfrom playfield import game\ndef on_tick(self, dt):\n    try:\n        game.get('world-1').announce('p%d' % time.ticks_ms())\n    except Exception:\n        pass\n" });
    await runtime.step(41);
    // Per script, two a second: at 50 and 100 ms, then at 1050 and 1100, 2050 and 2100 (sim ms).
    expect(world.messages.filter(([, text]) => text.startsWith("t")).map(([, text]) => text)).toEqual(["t50", "t100", "t1050", "t1100", "t2050"]);
    expect(world.messages.filter(([, text]) => text.startsWith("p")).map(([, text]) => text)).toEqual(["p50", "p100", "p1050", "p1100", "p2050"]);
  });
});
