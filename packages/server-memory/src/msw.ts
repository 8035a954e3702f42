/**
 * `@playfield/server-memory/msw`: msw handlers for the in-memory server.
 * A separate entry so that msw is needed only by those who use it.
 * @module
 */
export { mswHandlers } from "./testing/msw-handlers.js";
