// Runs a package's TypeScript source in this very process, as a checkout of
// the repository does before anything is built: tsx compiles it, and a
// resolve hook adds the workspace's "@playfield/source" export condition so
// that every @playfield/* import reaches src/ too. One process, not a
// launcher and a child: kill -9 of the PID the user sees stops the command
// and frees what it holds (its port, its data folder).
import { register } from "node:module";

/** Imports the source entry (a file URL) after the hooks are in place; exits 1 when tsx is missing. */
export async function runSource(entry) {
  let tsx;
  try {
    tsx = await import("tsx/esm/api");
  } catch {
    process.stderr.write("This checkout has no tsx to run its source: run npm ci at the repository's root first.\n");
    process.exit(1);
  }
  // Hooks run last-registered first: tsx maps .js to .ts, then the condition applies to what it resolves.
  register(new URL("./source-condition.js", import.meta.url));
  tsx.register();
  await import(entry);
}
