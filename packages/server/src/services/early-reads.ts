/*
 * Reads a call asks for before it needs them, so that a database sends them
 * together (on PostgreSQL, reads asked for in one microtask turn go in one
 * message): the call still meets them, and their failures, where it awaits
 * them. One it never awaits (an earlier check refused the call) must not
 * fail unhandled, which would end the process.
 */

/** Handles a rejection that is met later, where the promise is awaited. */
export function ignore(): undefined {
  return undefined;
}

/** `read` (null: none), its rejection handled until it is awaited (or never, on a path that returns first). */
export function early<P extends Promise<unknown> | null>(read: P): P {
  read?.catch(ignore);
  return read;
}
