import type { HostingTier } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";

/*
 * The parts of SessionService a deployment replaces: the allocator of edge
 * and dedicated game servers, the signalling address peer sessions connect
 * to, and the silence after which a member is dropped. Set with
 * `createMemoryServer({ sessions })`; services read `deps.sessions`.
 */

/** What an allocator is asked for: a game server for a new session. */
export interface AllocationRequest {
  sessionId: string;
  experienceId: string;
  placeVersionId: string;
  hostingTier: Extract<HostingTier, "edge" | "dedicated">;
}

/** Finds game servers for edge and dedicated sessions (a fleet manager, an edge network). */
export interface SessionAllocator {
  /** The address players of the new session connect to. Called outside any transaction. */
  allocate(request: AllocationRequest): Promise<string>;
  /** The session closed, or its allocation went unused: the server may go back to the pool. */
  release?(sessionId: string): void;
}

/** Placeholders of an address template. */
const PLACEHOLDERS = /\{(sessionId|experienceId|placeVersionId|tier)\}/g;

/** The default address template of edge and dedicated sessions. */
export const DEFAULT_ALLOCATOR_TEMPLATE = "wss://{tier}.playfield.test/sessions/{sessionId}";

/**
 * An allocator that fills an address template: `{sessionId}`,
 * `{experienceId}`, `{placeVersionId}` and `{tier}` are replaced.
 *
 * @example
 * createTemplateAllocator("wss://game-{tier}.example.com/{sessionId}")
 */
export function createTemplateAllocator(template: string = DEFAULT_ALLOCATOR_TEMPLATE): SessionAllocator {
  return {
    async allocate(request) {
      return template.replace(PLACEHOLDERS, (_, name: string) => encodeURIComponent(
        name === "tier" ? request.hostingTier : request[name as "sessionId" | "experienceId" | "placeVersionId"],
      ));
    },
  };
}

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
