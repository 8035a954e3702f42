import { proportionFactor, tables, type AvatarRow } from "@playfield/core";
import type { RawRoute, RouteAnswer } from "../../routes/route.js";
import type { ServerDeps } from "../../server-deps.js";
import { defaultAvatar } from "./avatar-service.js";
import { decodeSegment } from "../../routes/path-segment.js";

/*
 * The headshot every UserSummary points at: an SVG the server draws from the
 * saved avatar (head and torso tints, head and shoulder proportions, one
 * band per worn item), served at GET /avatars/<userId>/headshot.svg?v=<n>.
 * `v` is the avatar's version, so a saved avatar gets a new URL and the old
 * one may be cached for good.
 */

const SIZE = 128;
const HEADSHOT_PATH = /^\/avatars\/([^/]+)\/headshot\.svg$/;

/** Draws a headshot. Pure: the same avatar gives the same bytes. */
export function renderHeadshot(avatar: AvatarRow): string {
  const head = avatar.tints.head ?? "#f2c9a0";
  const torso = avatar.tints.torso ?? "#3b82f6";
  const headRadius = 26 * proportionFactor(avatar.proportions.head ?? 0);
  const shoulders = 44 * proportionFactor(avatar.proportions.shoulders ?? 0);
  const cx = SIZE / 2;
  const headY = 54;
  const bands = avatar.wornItemIds.slice(0, 5).map((_, i) =>
    `<rect x="${cx - headRadius}" y="${(headY - headRadius - 6 - i * 5).toFixed(1)}" width="${(headRadius * 2).toFixed(1)}" height="4" rx="2" fill="#111827" opacity="${(0.8 - i * 0.12).toFixed(2)}"/>`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    `<rect width="${SIZE}" height="${SIZE}" fill="#e5e7eb"/>`,
    `<path d="M${(cx - shoulders).toFixed(1)} ${SIZE} Q${cx} ${headY + headRadius - 4} ${(cx + shoulders).toFixed(1)} ${SIZE} Z" fill="${torso}"/>`,
    `<circle cx="${cx}" cy="${headY}" r="${headRadius.toFixed(1)}" fill="${head}"/>`,
    `<circle cx="${cx - 9}" cy="${headY - 3}" r="3" fill="#111827"/><circle cx="${cx + 9}" cy="${headY - 3}" r="3" fill="#111827"/>`,
    ...bands,
    `</svg>`,
  ].join("");
}

/** The headshot route. */
export function headshotRoute(deps: ServerDeps): RawRoute {
  return async (request): Promise<RouteAnswer | null> => {
    const match = request.method === "GET" ? HEADSHOT_PATH.exec(request.path) : null;
    if (!match) return null;
    const userId = decodeSegment(match[1]!);
    const avatar = userId === null ? null : await deps.storage.transact(async (tx) => {
      const user = await tx.get(tables.users, userId);
      if (!user || user.deletedAt !== null) return null;
      return (await tx.get(tables.avatars, userId)) ?? defaultAvatar(userId, user.createdAt);
    });
    if (!avatar) return { status: 404, headers: { "content-type": "text/plain" }, body: "no such user" };
    const current = request.query.get("v") === String(avatar.version);
    return {
      status: 200,
      body: renderHeadshot(avatar),
      headers: {
        "content-type": "image/svg+xml",
        etag: `"${avatar.version}"`,
        // A URL with the current version never changes; any other gets revalidated.
        "cache-control": current ? "public, max-age=31536000, immutable" : "no-cache",
      },
    };
  };
}
