import type { EngineSettings, LoadSpec } from "../engine/script-engines.js";

/** What an engine worker starts with. */
export interface WorkerData {
  toWorker: SharedArrayBuffer;
  toHost: SharedArrayBuffer;
  settings: Omit<EngineSettings, "modules">;
}

/** A load as sent to a worker: the game's API as its source (its calls come back to the host), console lines as a yes or no. */
export type WireLoadSpec = Omit<LoadSpec, "api" | "onConsole"> & { apiSource: string | undefined; console: boolean };
