/** A database that records each message it is sent, for tests that count round trips. */
import type { SqlDatabase } from "../src/index.js";
import { simpleTexts } from "../src/sql-statement.js";

/**
 * `database`, with each message pushed to `messages` (a batch as its
 * statements joined by "; "). Its sessions prepare no statements, so that a
 * message reads as the statements it runs, their parameters written in;
 * the messages are the same ones either way (test/prepared-statements.test.ts
 * tests the prepared ones).
 */
export function countedDatabase(database: SqlDatabase, messages: string[]): SqlDatabase {
  return {
    ...database,
    session: (fn) => database.session((session) => fn({
      query: (text, params) => {
        messages.push(text);
        return session.query(text, params);
      },
      batch: (statements) => {
        messages.push(statements.flatMap(simpleTexts).join("; "));
        return session.batch(statements);
      },
    })),
    // A whole transaction's message, each time it is sent (whole-messages.ts sends one that did not run again).
    whole: database.whole && ((compose) => database.whole!(() => {
      const message = compose(undefined);
      messages.push(message.statements.flatMap(simpleTexts).join("; "));
      return message;
    })),
  };
}

/** The messages `fn` made a counted database send (`messages` is emptied first). */
export async function messagesOf(messages: string[], fn: () => Promise<unknown>): Promise<string[]> {
  messages.length = 0;
  await fn();
  return [...messages];
}
