/** The in-memory storage adapter. */
export { createMemoryStorage } from "./memory-storage.js";
