import type { Storage } from "@playfield/core";
import type { PasswordHasher } from "@playfield/server";

/*
 * `playfield-server operator add|remove|list`: the admin API's accounts on a
 * persistent storage, with the server's own password hashing. A password
 * never goes on the command line (process lists show it): it comes from
 * $PLAYFIELD_OPERATOR_PASSWORD, or is generated and printed once.
 */

export type OperatorCommand =
  | { kind: "operator"; action: "add"; username: string; role: string; password: string | null }
  | { kind: "operator"; action: "remove"; username: string }
  | { kind: "operator"; action: "list" };

/** Runs one operator command on an opened storage; answers the lines to print. The hasher is the server's default unless given (tests). */
export async function runOperatorCommand(command: OperatorCommand, storage: Storage, hasher?: PasswordHasher): Promise<string[]> {
  const { addOperator, listOperators, removeOperator, createScryptHasher, createRandomIds, createSystemClock } = await import("@playfield/server");
  const deps = { storage, hasher: hasher ?? createScryptHasher(), ids: createRandomIds(), clock: createSystemClock() };
  if (command.action === "list") {
    const operators = await listOperators(deps);
    if (operators.length === 0) return ["no operators yet: the server creates admin at its first start"];
    return operators.map((op) => `${op.username}\t${op.role}\t${op.id}\tsince ${new Date(op.createdAt).toISOString()}`);
  }
  if (command.action === "add") {
    const password = command.password ?? deps.ids.secret();
    const added = await addOperator(deps, { username: command.username, password, role: command.role });
    return [`added operator ${added.username} (${added.role}, ${added.id})`, ...(command.password === null ? [`  password: ${password}  (printed once)`] : [])];
  }
  const target = (await listOperators(deps)).find((op) => op.usernameKey === command.username.toLowerCase());
  if (!target) throw new RangeError(`no operator named ${command.username}`);
  await removeOperator(deps, target.id);
  return [`removed operator ${target.username} (${target.role}); their tokens ended`];
}
