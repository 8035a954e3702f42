import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/*
 * CPU seconds (user + system) a running process has used so far, read from
 * /proc/<pid>/stat (Linux). The HTTP benchmarks read it for the server under
 * test before and after each load, to weigh it against the generator's cost.
 */

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export function processCpuSeconds(pid: number): number {
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ")".
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the file, 12th and 13th after the name.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}
