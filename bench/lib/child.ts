import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** Starts a bench helper script in its own process (its own core) and answers its first line. */
export async function startChild(script: string): Promise<{ child: ChildProcess; firstLine: string }> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", path], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  const firstLine = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, firstLine };
}
