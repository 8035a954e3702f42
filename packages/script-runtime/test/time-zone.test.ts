import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { runCli } from "./cli-process.js";
import { entry, newRuntime } from "./helpers.js";

/** Every way a script could read the host's time zone through Date, written into its state. */
const DATES = `export default { onTick() {
  const d = new Date(Date.UTC(2021, 0, 1, 2, 30));
  const y = new Date(Date.UTC(2021, 6, 1, 23, 30));
  y.setYear(99);
  const local = ["2021-03-14T02:30:00", "2021-03-14T02:30", "2021-11-07T01:30:00", "March 14, 2021 02:30:00", "2021/03/14 02:30", "Sun Mar 14 2021 02:30:00", "Mar 14 2021", "2021-03-14 02:30:00"];
  this.state = {
    getYear: d.getYear(),
    setYear: y.getTime(),
    parsed: local.map((s) => Date.parse(s)),
    made: local.map((s) => new Date(s).getTime()),
    fromObject: new Date({ toString() { return "2021-03-14T02:30:00" }, valueOf: undefined }).getTime(),
    text: [String(d), d.toString(), d.toTimeString(), d.toLocaleString(), d.getTimezoneOffset(), d.getHours()],
  };
} }`;

/** Runs the script through the command line in a process whose time zone is `tz`; answers its state hash and the chain. */
async function runIn(tz: string): Promise<unknown> {
  const answers = await runCli([
    { command: "script.load", args: { name: "dates", source: DATES } },
    { command: "runtime.step", args: { ticks: 2 } },
    { command: "script.list" },
  ], ["--manual-ticks"], { ...process.env, TZ: tz });
  const list = (answers.at(-1) as { result: { chain: string; scripts: { state_hash: string; last_fault: string | null }[] } }).result;
  expect(list.scripts[0]?.last_fault).toBeNull();
  return { chain: list.chain, state: list.scripts[0]?.state_hash };
}

describe("Date does not depend on the host's time zone", () => {
  it("should give the same chain with TZ=UTC and TZ=America/New_York", async () => {
    const [utc, newYork, tokyo] = await Promise.all([runIn("UTC"), runIn("America/New_York"), runIn("Asia/Tokyo")]);
    expect(newYork).toEqual(utc);
    expect(tokyo).toEqual(utc);
  }, 60_000);

  it("should read a text without a zone as UTC, and two-digit years in UTC", async () => {
    const runtime = newRuntime();
    const source = `export default { onTick() {
      const y = new Date(Date.UTC(2021, 6, 1, 23, 30)); y.setYear(99);
      this.state = [Date.parse("2021-03-14T02:30:00") === Date.UTC(2021, 2, 14, 2, 30), new Date("March 14, 2021 02:30:00").getTime() === Date.UTC(2021, 2, 14, 2, 30),
        new Date(Date.UTC(2021, 0, 1, 2)).getYear(), y.getTime() === Date.UTC(1999, 6, 1, 23, 30)] } }`;
    await runtime.run("script.load", { name: "dates", source });
    await runtime.step(1);
    expect(await entry(runtime, "dates")).toMatchObject({ last_fault: null, state_hash: stateHash("[true,true,121,true]") });
  });
});
