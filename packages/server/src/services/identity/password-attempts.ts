import {
  fail, isThrottled, recordFailure, recordSlowedFailure, retryAfterSeconds, slowdownWaitMs, tables, usernameKey, withdrawFailure,
  type SlowdownRule, type ThrottleRule, type Tx,
} from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/*
 * The budgets of password guesses (docs/identity.md, "Password throttling").
 * Every password check, at sign-in or a re-check by a signed-in caller,
 * is first counted as a failure, in the transaction that checks the limit
 * and before the (slow) hash: attempts in flight at once cannot all pass a
 * limit that only finished ones would have reached. A success takes its
 * count back. The counts are `throttles` rows, so every server process on
 * one storage counts against the same ones.
 */

/** One count an attempt makes: a key, its rule, and whether past the rule it is slowed (per username) or refused. */
interface Budget {
  key: string;
  rule: ThrottleRule | SlowdownRule;
  slowed: boolean;
  /** On success: forget this key's failures (the caller proved the password from here), or only take this attempt's back. */
  onSuccess: "clear" | "withdraw";
}

/** The budgets of one attempt, and the windows it was counted in. */
export interface CountedAttempt {
  budgets: Budget[];
  windows: number[];
}

/** A client with no address (in process, no socket) is one address of its own, so its failures still count per username. */
const NO_ADDRESS = "-";

/** Whose sign-ins a budget counts: players' (`signin`) or operators' (`opsignin`, the admin API), never both in one key. */
export type SignInRealm = "signin" | "opsignin";

function pairBudget(deps: ServerDeps, username: string, address: string | null, realm: SignInRealm = "signin"): Budget {
  const key = `${realm}:pair:${usernameKey(username)}:${address ?? NO_ADDRESS}`;
  return { key, rule: deps.config.signInThrottle.perUsernameAndAddress, slowed: false, onSuccess: "clear" };
}

function usernameBudget(deps: ServerDeps, username: string, realm: SignInRealm = "signin"): Budget {
  return { key: `${realm}:user:${usernameKey(username)}`, rule: deps.config.signInThrottle.perUsername, slowed: true, onSuccess: "withdraw" };
}

/**
 * A sign-in's budgets: its username from its address, its username from anywhere (slowed), its address for any
 * username. Operators' sign-ins count in budgets of their own, under the same rules.
 */
export function signInBudgets(deps: ServerDeps, username: string, address: string | null, realm: SignInRealm = "signin"): Budget[] {
  const budgets = [pairBudget(deps, username, address, realm), usernameBudget(deps, username, realm)];
  if (address) budgets.push({ key: `${realm}:addr:${address}`, rule: deps.config.signInThrottle.perAddress, slowed: false, onSuccess: "withdraw" });
  return budgets;
}

/**
 * A password re-check's budgets (ChangePassword, ChangeUsername,
 * DeleteAccount): those of a sign-in to the account from the caller's
 * address, and the account's own from any address, so a stolen token gains
 * no more guesses by moving. Sign-in does not read the account's own, so the
 * owner can still sign in from elsewhere.
 */
export function recheckBudgets(deps: ServerDeps, userId: string, username: string, address: string | null): Budget[] {
  const rule = deps.config.signInThrottle.perUsernameAndAddress;
  return [pairBudget(deps, username, address), usernameBudget(deps, username), { key: `recheck:account:${userId}`, rule, slowed: false, onSuccess: "clear" }];
}

/** Counts an attempt against every budget, inside `tx`, or throws `resource_exhausted` naming the seconds to wait (counting nothing). */
export async function countAttempt(tx: Tx, budgets: Budget[], now: number, what: string): Promise<CountedAttempt> {
  const states = await Promise.all(budgets.map((budget) => tx.get(tables.throttles, budget.key)));
  for (const [i, { rule, slowed }] of budgets.entries()) {
    const state = states[i];
    const waitSeconds = slowed
      ? Math.ceil(slowdownWaitMs(state, rule as SlowdownRule, now) / 1000)
      : isThrottled(state, rule, now) ? retryAfterSeconds(state!, rule, now) : 0;
    if (waitSeconds > 0) throw fail.exhausted(`too many ${what}: try again in ${waitSeconds} s`);
  }
  const windows: number[] = [];
  for (const [i, { key, rule, slowed }] of budgets.entries()) {
    const next = slowed ? recordSlowedFailure(states[i], rule as SlowdownRule, now) : recordFailure(states[i], rule, now);
    await tx.put(tables.throttles, { key, ...next });
    windows.push(next.windowStart);
  }
  return { budgets, windows };
}

/** After the right password: forgets or takes back what the attempt counted, inside `tx`. */
export async function settleSuccess(tx: Tx, attempt: CountedAttempt): Promise<void> {
  for (const [i, { key, onSuccess }] of attempt.budgets.entries()) {
    if (onSuccess === "clear") {
      await tx.delete(tables.throttles, key);
      continue;
    }
    const left = withdrawFailure(await tx.get(tables.throttles, key), attempt.windows[i]!);
    if (left) await tx.put(tables.throttles, { key, ...left });
    else await tx.delete(tables.throttles, key);
  }
}

/** A hash of no one's password, per hasher: an unknown username is checked against it, so it takes as long as a known one. */
const dummies = new WeakMap<object, Promise<string>>();

/** Whether `password` is the one of `encoded`; with no stored hash, a check against a dummy that fails in the same time. */
export async function verifyPassword(deps: ServerDeps, password: string, encoded: string | null): Promise<boolean> {
  if (encoded) return deps.hasher.verify(password, encoded);
  let dummy = dummies.get(deps.hasher);
  if (!dummy) {
    dummy = deps.hasher.hash(deps.ids.secret());
    dummies.set(deps.hasher, dummy);
    dummy.catch(() => dummies.delete(deps.hasher));
  }
  await deps.hasher.verify(password, await dummy);
  return false;
}
