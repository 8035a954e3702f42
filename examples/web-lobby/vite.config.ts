import { defaultClientConditions, defineConfig } from "vite";

// The lobby's dev server: its own origin (port 5173), another than the API's (8080).
export default defineConfig({
  // In this repository the client is read from its source (no build needed); an app
  // that installs @playfield/client from npm leaves this out.
  resolve: { conditions: ["@playfield/source", ...defaultClientConditions] },
  server: { host: "127.0.0.1", port: 5173, strictPort: true },
});
