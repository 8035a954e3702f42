import { createClient, type PlayfieldClient } from "@playfield/client";
import { tables } from "@playfield/core";
import { startServer, type StartedServer, type StartServerOptions } from "@playfield/server-memory";
import type { SeededUser, SeedUserOptions } from "@playfield/server-memory";
import { readySocket, type TestSocket } from "./realtime-sockets.js";

/*
 * Helpers of the chat suites: a listening server, accounts with a client
 * and real WebSocket connections, friendships, blocks and settings written
 * through the API where it has them.
 */

export interface ChatServer extends AsyncDisposable {
  server: StartedServer;
  /** A seeded account (or guest) with a client and one ready connection. */
  account(options?: SeedUserOptions & { connect?: boolean }): Promise<Person>;
}

export interface Person {
  user: SeededUser;
  id: string;
  client: PlayfieldClient;
  /** The first connection (absent with `connect: false`). */
  socket: TestSocket;
  /** Opens another connection of the same user. */
  connect(): Promise<TestSocket>;
}

/** A listening server with chat helpers, disposed with `await using`. */
export async function chatServer(options: StartServerOptions = {}): Promise<ChatServer> {
  const server = await startServer({ port: 0, sessionSweepMs: 0, ...options });
  return {
    server,
    async account(options = {}) {
      const user = await server.seed.user(options);
      const client = createClient({ baseUrl: server.url });
      await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
      const connect = () => readySocket(server.url, user.accessToken);
      const socket = options.connect === false ? (undefined as unknown as TestSocket) : await connect();
      return { user, id: user.userId, client, socket, connect };
    },
    [Symbol.asyncDispose]: () => server.close(),
  };
}

let sends = 0;

/** Sends a chat message; resolves with the ack or the error event answering it. */
export async function send(from: Person, channel: string, text: string, clientMessageId = `c${++sends}`, socket = from.socket): Promise<Record<string, unknown>> {
  socket.send({ type: "chat_send", channel, text, clientMessageId });
  return socket.next((m) => (m.type === "chat_ack" || (m.type === "error" && m.about === "chat_send")) && m.clientMessageId === clientMessageId);
}

/** Sends a message that must be stored; answers its id. */
export async function sent(from: Person, channel: string, text: string): Promise<string> {
  const answer = await send(from, channel, text);
  if (answer.type !== "chat_ack") throw new Error(`refused: ${JSON.stringify(answer)}`);
  return answer.messageId as string;
}

/** Resolves with the chat_message of `messageId` on a connection. */
export function received(socket: TestSocket, messageId: string): Promise<Record<string, unknown>> {
  return socket.next((m) => m.type === "chat_message" && m.messageId === messageId);
}

export async function befriend(a: Person, b: Person): Promise<void> {
  await a.client.social.sendFriendRequest({ userId: b.id });
  await b.client.social.acceptFriendRequest({ userId: a.id });
}

/** Sets `whoCanMessage` straight in storage (UpdateSettings refuses `everyone` for under-13 accounts). */
export async function setWhoCanMessage(server: StartedServer, userId: string, whoCanMessage: "everyone" | "friends" | "nobody"): Promise<void> {
  await server.deps.storage.transact(async (tx) => {
    const user = (await tx.get(tables.users, userId))!;
    await tx.put(tables.users, { ...user, settings: { ...user.settings, whoCanMessage } });
  });
}

/** Waits a little, for messages that must not arrive. */
export const settle = () => new Promise((r) => setTimeout(r, 40));

/** The chat messages a connection received. */
export const chatMessages = (socket: TestSocket) => socket.messages.filter((m) => m.type === "chat_message");

export const CHILD_BIRTHDATE = "2018-06-01";
