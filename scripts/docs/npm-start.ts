import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/* `npm start` as the docs show it, for the tests that run the docs' commands. */

/** A started `npm start`: its URL, the first line it printed, and npm's process. */
export interface NpmStarted { url: string; firstLine: string; child: ChildProcess }

/** Starts `npm start` (in memory) in `cwd` on a free port; resolves once it listens. */
export async function npmStart(cwd: string): Promise<NpmStarted> {
  // Its own process group, so that the server under npm is stopped with it whatever npm does with signals.
  const child = spawn("npm", ["start"], { cwd, env: { ...process.env, PORT: "0", DATABASE_URL: "" }, stdio: ["ignore", "pipe", "inherit"], detached: true });
  return new Promise<NpmStarted>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let firstLine: string | undefined;
    lines.on("line", (line) => {
      // npm's own header ("> start", "> exec …") and blank lines come first.
      if (firstLine === undefined && line.trim() !== "" && !line.startsWith(">")) firstLine = line;
      const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (url) resolve({ url, firstLine: firstLine!, child });
    });
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}`)));
  });
}

/** Kills a started `npm start`'s whole process group, if any of it is left. */
export function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // the group has ended already
  }
}
