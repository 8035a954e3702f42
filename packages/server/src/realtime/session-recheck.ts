import { isExpired, tables } from "@playfield/core";
import { sessionRefusal } from "../rpc/authorize.js";
import type { ServerDeps } from "../server-deps.js";
import { ignore } from "../services/early-reads.js";

/*
 * The periodic recheck of open realtime connections. A connection's token
 * had its signature verified when it authenticated, and a signature does
 * not change: what can change is the device session (sign-out, a password
 * change, removal), the account (deletion) and the time (expiry). So a
 * recheck reads the devices and accounts of a batch of connections in one
 * read-only transaction (`getMany`, one round trip on a database; on
 * PostgreSQL through the row copies that other processes' notices keep
 * current) and judges expiry on the clock; no signature is checked again.
 */

/** What a recheck needs of a connection. */
export interface RecheckedSession {
  readonly userId: string;
  readonly deviceId: string;
  /** The token's `exp`, seconds since the epoch. */
  readonly expiresAt: number;
}

/**
 * Judges a batch of connections' sessions: answers, in order, why each is
 * refused (`unauthenticated: …`, the reason `authorize` gives) or null while
 * it stands. Throws when storage cannot be read (the connections stay open:
 * a storage outage does not sign anyone out).
 */
export async function recheckSessions(deps: ServerDeps, sessions: readonly RecheckedSession[]): Promise<(string | null)[]> {
  if (sessions.length === 0) return [];
  const [devices, users] = await deps.storage.transact(async (tx) => {
    // Both asked for before either is awaited: on a database they go in one message.
    const deviceRows = tx.getMany(tables.devices, sessions.map((s) => s.deviceId));
    const userRows = tx.getMany(tables.users, sessions.map((s) => s.userId));
    userRows.catch(ignore);
    return [await deviceRows, await userRows] as const;
  }, { readOnly: true });
  const now = deps.clock.now();
  return sessions.map((session, i) => {
    const refusal = sessionRefusal({ sub: session.userId }, devices[i], users[i]) ?? (isExpired({ exp: session.expiresAt }, now) ? "token expired" : null);
    return refusal === null ? null : `unauthenticated: ${refusal}`;
  });
}
