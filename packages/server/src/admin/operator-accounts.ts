import {
  OPERATOR_ROLES, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE, USERNAME_PATTERN, USERNAME_RULE, fail, tables, usernameKey,
  type OperatorRole, type OperatorRow, type Tx,
} from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";

/*
 * Operators' accounts: what the admin API's OperatorService, the bootstrap
 * at start and `playfield-server operator add|remove|list` share. Operators
 * are not players: their own table, their own tokens (operator-tokens.ts).
 */

/** The operator every storage has once it has been started: its password is set at start or generated once. */
export const BOOTSTRAP_OPERATOR = "admin";

/** The parts of a server an operator account needs. */
export type OperatorDeps = Pick<ServerDeps, "storage" | "hasher" | "ids" | "clock">;

/** Checks a new operator's fields; throws `invalid_argument` naming the field. */
function checkNewOperator(username: string, password: string, role: string): asserts role is OperatorRole {
  if (!USERNAME_PATTERN.test(username)) throw fail.invalid(`username: ${USERNAME_RULE}`);
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw fail.invalid(`password: ${PASSWORD_RULE}`);
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw fail.invalid(`role: one of ${OPERATOR_ROLES.join(", ")}`);
}

/** The operator of a username (any case), if any. */
export async function operatorByUsername(tx: Tx, username: string): Promise<OperatorRow | undefined> {
  const [row] = await tx.query(tables.operators, "byUsername", { equals: [usernameKey(username)], limit: 1 });
  return row;
}

/** Adds an operator; `already_exists` when the username is taken. `andThen` runs in the same transaction (the audit entry). */
export async function addOperator(
  deps: OperatorDeps,
  fields: { username: string; password: string; role: string },
  andThen?: (tx: Tx, row: OperatorRow) => Promise<void>,
): Promise<OperatorRow> {
  checkNewOperator(fields.username, fields.password, fields.role);
  const role = fields.role;
  const passwordHash = await deps.hasher.hash(fields.password);
  return deps.storage.transact(async (tx) => {
    if (await operatorByUsername(tx, fields.username)) throw fail.exists("username: already taken");
    const row: OperatorRow = {
      id: deps.ids.id("op"), username: fields.username, usernameKey: usernameKey(fields.username), role, passwordHash, createdAt: deps.clock.now(),
    };
    await tx.put(tables.operators, row);
    await andThen?.(tx, row);
    return row;
  });
}

/** Every operator, by username. */
export function listOperators(deps: Pick<ServerDeps, "storage">): Promise<OperatorRow[]> {
  return deps.storage.transact((tx) => tx.query(tables.operators, "byUsername"), { readOnly: true });
}

/**
 * Removes an operator and ends their tokens. Refuses to remove the last
 * admin (`failed_precondition`): nobody could manage operators after it.
 */
export async function removeOperator(deps: Pick<ServerDeps, "storage">, operatorId: string): Promise<OperatorRow> {
  return deps.storage.transact(async (tx) => removeOperatorIn(tx, operatorId));
}

/** `removeOperator` inside a transaction (the admin API audits in the same one). */
export async function removeOperatorIn(tx: Tx, operatorId: string): Promise<OperatorRow> {
  const row = await tx.get(tables.operators, operatorId);
  if (!row) throw fail.notFound("operatorId: no such operator");
  if (row.role === "admin") {
    const admins = (await tx.query(tables.operators, "byUsername")).filter((op) => op.role === "admin");
    if (admins.length <= 1) throw fail.precondition("operatorId: the last admin cannot be removed");
  }
  for (const session of await tx.query(tables.operatorSessions, "byOperator", { equals: [row.id] })) {
    await tx.delete(tables.operatorSessions, session.hash);
  }
  await tx.delete(tables.operators, row.id);
  return row;
}

/** What the bootstrap did: `password` is set when it generated one (to print once). */
export interface BootstrapResult {
  operator: OperatorRow;
  /** The generated password of `admin`, when the storage had no operator and none was given. */
  generatedPassword: string | null;
}

/**
 * Makes sure the storage has its first operator, at every start:
 * with `password` (PLAYFIELD_ADMIN_PASSWORD), `admin` exists as an admin
 * with that password (its tokens end when the password changes); without,
 * a storage with no operator at all gets `admin` with a generated password,
 * answered once for the command to print, and a storage with operators is
 * left as it is.
 */
export async function bootstrapOperators(deps: OperatorDeps, password?: string): Promise<BootstrapResult | null> {
  if (password !== undefined && password !== "") {
    if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) throw new RangeError(`PLAYFIELD_ADMIN_PASSWORD: ${PASSWORD_RULE}`);
    const existing = await deps.storage.transact((tx) => operatorByUsername(tx, BOOTSTRAP_OPERATOR), { readOnly: true });
    if (existing && (await deps.hasher.verify(password, existing.passwordHash)) && existing.role === "admin") return { operator: existing, generatedPassword: null };
    const passwordHash = await deps.hasher.hash(password);
    const operator = await deps.storage.transact(async (tx) => {
      const current = await operatorByUsername(tx, BOOTSTRAP_OPERATOR);
      const row: OperatorRow = current
        ? { ...current, role: "admin", passwordHash }
        : { id: deps.ids.id("op"), username: BOOTSTRAP_OPERATOR, usernameKey: BOOTSTRAP_OPERATOR, role: "admin", passwordHash, createdAt: deps.clock.now() };
      if (current) {
        for (const session of await tx.query(tables.operatorSessions, "byOperator", { equals: [current.id] })) await tx.delete(tables.operatorSessions, session.hash);
      }
      await tx.put(tables.operators, row);
      return row;
    });
    return { operator, generatedPassword: null };
  }
  const any = await deps.storage.transact((tx) => tx.query(tables.operators, "byUsername", { limit: 1 }), { readOnly: true });
  if (any.length > 0) return null;
  const generated = deps.ids.secret();
  const operator = await addOperator(deps, { username: BOOTSTRAP_OPERATOR, password: generated, role: "admin" }).catch(async (error: unknown) => {
    // Another process bootstrapped the same storage at the same moment: its password stands.
    const raced = await deps.storage.transact((tx) => operatorByUsername(tx, BOOTSTRAP_OPERATOR), { readOnly: true });
    if (raced) return null;
    throw error;
  });
  return operator ? { operator, generatedPassword: generated } : null;
}
