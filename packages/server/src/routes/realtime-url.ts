import type { ServerConfig } from "../server-deps.js";

/**
 * The realtime WebSocket's URL as players are handed it: from the configured
 * public address (`wss://play.example/realtime`), never from a request — a
 * forged `Host` or `X-Forwarded-*` must not send a player's token (the first
 * realtime frame) to another host. Without one (a server called in process)
 * it is relative to the server: `/realtime`.
 */
export function realtimeUrl(config: Pick<ServerConfig, "publicUrl">): string {
  if (config.publicUrl === null) return "/realtime";
  return `${config.publicUrl.replace(/^http/, "ws")}/realtime`;
}
