import { fail, isoTime, tables, type OperatorRow, type OperatorService } from "@playfield/core";
import { countAttempt, settleSuccess, signInBudgets, verifyPassword } from "../../services/identity/password-attempts.js";
import type { AdminServiceImpl } from "../admin-router.js";
import { writeAudit } from "../audit-log.js";
import { addOperator, operatorByUsername, removeOperatorIn } from "../operator-accounts.js";
import { issueOperatorToken } from "../operator-tokens.js";

/** An operator as the admin API shows it: never the password hash. */
export const operatorView = (row: OperatorRow) => ({ id: row.id, username: row.username, role: row.role, createdAt: isoTime(row.createdAt) });

/** OperatorService: operators' sign-in and accounts. */
export const operatorMethods: AdminServiceImpl<typeof OperatorService> = {
  async signIn(req, ctx) {
    const { deps } = ctx;
    // The players' budgets and rules, in keys of the operators' own.
    const budgets = signInBudgets(deps, req.username, ctx.clientAddress, "opsignin");
    return deps.hashing.admit(async () => {
      const { found, attempt } = await deps.storage.transact(async (tx) => ({
        attempt: await countAttempt(tx, budgets, deps.clock.now(), "failed sign-ins"),
        found: await operatorByUsername(tx, req.username),
      }));
      // An unknown name is checked against a dummy hash: it takes as long as a wrong password.
      const ok = await verifyPassword(deps, req.password, found?.passwordHash ?? null);
      if (!ok || !found) throw fail.unauthenticated("username or password is wrong");
      const { token, expiresAt } = await issueOperatorToken(deps, found, ctx.tokenSeconds);
      await deps.storage.transact(async (tx) => {
        await settleSuccess(tx, attempt);
        const now = deps.clock.now();
        // Expired tokens of this operator go at each sign-in, so the table holds only live ones and a few.
        for (const old of await tx.query(tables.operatorSessions, "byOperator", { equals: [found.id] })) {
          if (old.expiresAt <= now) await tx.delete(tables.operatorSessions, old.hash);
        }
        await writeAudit(tx, deps, { operator: found, requestId: ctx.requestId }, { action: "OperatorService.SignIn", target: `operator:${found.id}` });
      });
      return { token, expiresAt: isoTime(expiresAt), operator: operatorView(found) };
    });
  },

  async signOut(_req, ctx) {
    const { tokenHash, operator } = ctx.operator();
    await ctx.deps.storage.transact(async (tx) => {
      await tx.delete(tables.operatorSessions, tokenHash);
      await ctx.audit(tx, { action: "OperatorService.SignOut", target: `operator:${operator.id}` });
    });
    return {};
  },

  async getMe(_req, ctx) {
    return operatorView(ctx.operator().operator);
  },

  async listOperators(_req, ctx) {
    const rows = await ctx.deps.storage.transact((tx) => tx.query(tables.operators, "byUsername"), { readOnly: true });
    return { operators: rows.map(operatorView) };
  },

  async addOperator(req, ctx) {
    const { deps } = ctx;
    const row = await deps.hashing.admit(() => addOperator(deps, req, (tx, added) =>
      ctx.audit(tx, { action: "OperatorService.AddOperator", target: `operator:${added.id}`, after: operatorView(added) })));
    return operatorView(row);
  },

  async removeOperator(req, ctx) {
    await ctx.deps.storage.transact(async (tx) => {
      const row = await removeOperatorIn(tx, req.operatorId);
      await ctx.audit(tx, { action: "OperatorService.RemoveOperator", target: `operator:${row.id}`, before: operatorView(row) });
    });
    return {};
  },
};
