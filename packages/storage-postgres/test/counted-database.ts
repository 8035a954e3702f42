/** A database that records each message it is sent, for tests that count round trips. */
import type { Sql, SqlDatabase } from "../src/index.js";

/**
 * `database`, with each message pushed to `messages` (a batch as its
 * statements joined by "; ", each shown with its values in place of its
 * parameters, to be read by the tests: never sent so).
 */
export function countedDatabase(database: SqlDatabase, messages: string[]): SqlDatabase {
  return {
    ...database,
    session: (fn) => database.session((session) => fn({
      query: (text, params) => {
        messages.push(shown({ text, params: params ?? [] }));
        return session.query(text, params);
      },
      batch: (statements) => {
        messages.push(statements.map(shown).join("; "));
        return session.batch(statements);
      },
    })),
    // A whole transaction, as one message.
    whole: database.whole && ((message) => {
      messages.push(message.statements.map(shown).join("; "));
      return database.whole!(message);
    }),
  };
}

/** `sql` with its values shown in place of `$1…`: bytes in hex, texts quoted as they are. */
function shown(sql: Sql): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = sql.params[Number(n) - 1];
    if (value instanceof Uint8Array) return `'\\x${Buffer.from(value).toString("hex")}'`;
    return typeof value === "string" ? `'${value}'` : String(value);
  });
}

/** The messages `fn` made a counted database send (`messages` is emptied first). */
export async function messagesOf(messages: string[], fn: () => Promise<unknown>): Promise<string[]> {
  messages.length = 0;
  await fn();
  return [...messages];
}
