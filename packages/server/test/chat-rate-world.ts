import { createClient, type PlayfieldClient } from "@playfield/client";
import { createMemoryServer, type MemoryServer, type ServerOptions } from "@playfield/server-memory";
import { startServer } from "@playfield/server-memory";
import { createRealtimeEndpoint } from "../src/realtime/realtime-endpoint.js";
import type { ServerDeps } from "../src/server-deps.js";
import { messageLog, readySocket } from "./realtime-sockets.js";

/*
 * Helpers of the chat rate suites: a server reached in process (the realtime
 * endpoint driven with no socket) or over a real WebSocket, accounts with a
 * client and connections, and `chat_send` answered by its ack or error.
 */

export const KINDS = ["in-process", "socket"] as const;
export type Kind = (typeof KINDS)[number];

/** One realtime connection: what it received, and a wait for a message. */
export interface Link {
  messages: Record<string, unknown>[];
  send(message: unknown): void;
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
}

export interface Account {
  id: string;
  client: PlayfieldClient;
  /** Opens a connection of this user, ready. */
  connect(): Promise<Link>;
}

export interface RateWorld extends AsyncDisposable {
  server: MemoryServer;
  account(): Promise<Account>;
}

/** Collects the JSON messages of a connection and resolves waits on them. */
function collector(): Link & { push(message: Record<string, unknown>): void } {
  return { ...messageLog(), send: () => { throw new Error("not connected"); } };
}

/** Connections to a server's realtime endpoint driven in process, with no socket: `connect(token)` opens one, ready. */
export function inProcessLinks(deps: ServerDeps): (token: string) => Promise<Link> {
  const endpoint = createRealtimeEndpoint(deps);
  return async (token) => {
    const link = collector();
    const peer = endpoint.open({
      send(text, done) { link.push(JSON.parse(text) as Record<string, unknown>); done(); },
      close() {},
      bufferedAmount: 0,
    });
    link.send = (message) => peer.receive(JSON.stringify(message));
    link.send({ type: "auth", token });
    await link.next((m) => m.type === "ready");
    return link;
  };
}

/** A server of `kind` with the given options, its clock frozen so limits are exact. */
export async function rateWorld(kind: Kind, options: ServerOptions): Promise<RateWorld> {
  if (kind === "in-process") {
    const server = createMemoryServer(options);
    server.clock.freeze();
    const connect = inProcessLinks(server.deps);
    return {
      server,
      async account() {
        const user = await server.seed.user();
        const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
        await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
        return { id: user.userId, client, connect: () => connect(user.accessToken) };
      },
      [Symbol.asyncDispose]: async () => {},
    };
  }
  const server = await startServer({ port: 0, sessionSweepMs: 0, ...options });
  server.clock.freeze();
  return {
    server,
    async account() {
      const user = await server.seed.user();
      const client = createClient({ baseUrl: server.url });
      await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
      return { id: user.userId, client, connect: () => readySocket(server.url, user.accessToken) };
    },
    [Symbol.asyncDispose]: () => server.close(),
  };
}

/** Whether a message answers the chat_send of `clientMessageId`. */
export const answers = (clientMessageId: string) => (m: Record<string, unknown>) =>
  (m.type === "chat_ack" || (m.type === "error" && m.about === "chat_send")) && m.clientMessageId === clientMessageId;

let sends = 0;

/** A fresh clientMessageId. */
export const freshId = () => `r${++sends}`;

/** Sends a chat message; resolves with the ack or the error event answering it (a resend: the answer after it). */
export async function send(link: Link, channel: string, text: string, clientMessageId = freshId()): Promise<Record<string, unknown>> {
  const start = link.messages.length;
  link.send({ type: "chat_send", channel, text, clientMessageId });
  const answer = answers(clientMessageId);
  return link.next((m) => answer(m) && link.messages.indexOf(m) >= start);
}

/** The chat messages a connection received. */
export const chatMessages = (link: Link) => link.messages.filter((m) => m.type === "chat_message");

/** Waits a little, for messages that must not arrive. */
export const settle = () => new Promise((r) => setTimeout(r, 40));
