/* The commands of docs/configuration.md's "Starting over", and what the tests that run them check. */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { codeBlocks, shellCommands } from "../../../scripts/docs/code-blocks.js";
import { call, startServerProcess } from "./server-process.js";

const PAGE = new URL("../../../docs/configuration.md", import.meta.url);

/** The page's command that starts a server on that storage, and the one that throws its world away. */
export function startingOverCommands(storage: "data folder" | "postgres"): { start: string; remove: string } {
  const section = readFileSync(PAGE, "utf8").split("\n## Starting over\n")[1]!.split("\n## ")[0]!;
  const commands = codeBlocks("configuration.md", section).filter((b) => b.lang === "sh").flatMap(shellCommands);
  const find = (test: (c: string) => boolean, what: string) => {
    const found = commands.find(test);
    if (found === undefined) throw new Error(`docs/configuration.md, Starting over: no command ${what}`);
    return found;
  };
  return storage === "data folder"
    ? { start: find((c) => c.includes("--data-dir"), "with --data-dir"), remove: find((c) => c.startsWith("rm "), "rm") }
    : { start: find((c) => c.includes("--database-schema"), "with --database-schema"), remove: find((c) => c.startsWith("psql "), "psql") };
}

/** Starts the server on `args`, signs Ada up, stops it; answers the sign-up's error code ("" when it passed). */
export async function signUpAda(args: string[]): Promise<string> {
  const server = await startServerProcess(args);
  try {
    await call(server.url, "IdentityService/SignUp", { username: "ada_l", password: "analytical engine", birthdate: "1990-12-10" });
    return "";
  } catch (error) {
    return /"code":"(\w+)"/.exec(String(error))?.[1] ?? String(error);
  } finally {
    expect((await server.stop()).code).toBe(0);
  }
}
