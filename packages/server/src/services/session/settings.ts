import { createTemplateAllocator, type SessionAllocator } from "../../ports/allocator.js";

/*
 * The parts of SessionService a deployment replaces: the allocator of edge
 * and dedicated game servers, the signalling address peer sessions connect
 * to, and the silence after which a member is dropped. Set with
 * `createServer({ sessions })`; services read `deps.sessions`.
 */

export interface SessionSettings {
  allocator: SessionAllocator;
  /** The realtime address peer sessions signal through; null: `ws://<Host header>/realtime`. */
  signallingUrl: string | null;
  /** A member silent this long is dropped (DESIGN.md: 60 s; heartbeats every 15 s expected). */
  silenceMs: number;
}

/** The settings of a server: the defaults, with the given ones over them. */
export function resolveSessionSettings(given: Partial<SessionSettings> = {}): SessionSettings {
  return { allocator: createTemplateAllocator(), signallingUrl: null, silenceMs: 60_000, ...given };
}
