/** Serves the garden's Scripts panel: `npm run serve` in this folder, then open the printed address. */
import { createScriptEditor, createScriptServer } from "@playfield/script-runtime/node";
import { createGardenKinds } from "./garden-kinds.js";
import { PROJECT } from "./main.js";

const editor = createScriptEditor({ project: PROJECT, kinds: createGardenKinds });
editor.runtime.start();
const server = await createScriptServer(editor.runtime, { port: Number(process.env.PORT ?? 8787) });
console.log(`Scripts panel: ${server.url}`);
