/**
 * Serves the garden's Scripts panel: `npm run serve` in this folder, then open the printed address.
 * Stops as playfield-server does, on SIGTERM or Ctrl-C: the panel's server and the runtime closed, exit 0.
 */
import { createScriptEditor, createScriptServer } from "@playfield/script-runtime/node";
import { createGardenKinds } from "./garden-kinds.js";
import { PROJECT } from "./main.js";

const editor = createScriptEditor({ project: PROJECT, kinds: createGardenKinds });
editor.runtime.start();
const server = await createScriptServer(editor.runtime, { port: Number(process.env.PORT ?? 8787) });
console.log(`Scripts panel: ${server.url}`);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    // A terminal's Ctrl-C reaches npm and this process both, and npm passes it on: one stop.
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    void Promise.all([server.close(), editor.dispose()]).then(() => process.exit(0), (error: unknown) => {
      console.error(error);
      process.exit(1);
    });
  });
}
