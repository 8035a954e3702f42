import type { HostingTier } from "@playfield/core";

/*
 * The allocator port: where edge and dedicated game sessions are hosted. A
 * deployment replaces it with its fleet manager or edge network through
 * `createServer({ sessions: { allocator } })`; the default fills an address template.
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
