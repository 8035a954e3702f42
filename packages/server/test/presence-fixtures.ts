import { createRealtimeEndpoint, type RealtimeEndpoint } from "../src/realtime/realtime-endpoint.js";
import { presenceFeed } from "../src/services/presence/feed.js";
import type { MemoryServer } from "@playfield/server-memory";
import type { StartedServer } from "@playfield/server-memory";
import type { TestServer, TransportKind } from "./fixtures.js";
import { readySocket } from "./realtime-sockets.js";
import { player, type Player } from "./session-world.js";

/*
 * Realtime connections of the presence suites: in process, the server's
 * realtime endpoint driven through a socket stand-in; over the network, a
 * real WebSocket to the listening server. Both speak the same protocol.
 */

export type Message = Record<string, unknown>;

/** One authenticated realtime connection. */
export interface Connection {
  messages: Message[];
  /** Waits until every announcement asked for so far has been sent and has reached this connection. */
  barrier(): Promise<void>;
  /** Closes the connection and waits until the server has told whoever must know. */
  close(): Promise<void>;
}

/** The `presence` messages a connection received about `userId`, oldest first, as `presence` or `in_game:<experienceId>`. */
export function presenceAbout(connection: Connection, userId: string): string[] {
  return connection.messages
    .filter((m) => m.type === "presence" && m.userId === userId)
    .map((m) => (m.presence === "in_game" ? `in_game:${String(m.experienceId)}` : String(m.presence)));
}

/** Every `presence` message a connection received. */
export const presenceMessages = (connection: Connection): Message[] => connection.messages.filter((m) => m.type === "presence");

const endpoints = new WeakMap<MemoryServer, RealtimeEndpoint>();

/** Opens a realtime connection of a user and waits for `ready` (and the greeting that follows it). */
export async function connect(t: TestServer, kind: TransportKind, accessToken: string): Promise<Connection> {
  const feed = presenceFeed(t.server.deps);
  if (kind === "listening") {
    const socket = await readySocket(t.baseUrl, accessToken);
    const connection: Connection = {
      messages: socket.messages,
      async barrier() {
        await feed.settled();
        // The server writes a connection's frames in order: once the pong is here, so is every event sent before it.
        const pongs = socket.messages.filter((m) => m.type === "pong").length;
        socket.send({ type: "ping" });
        await socket.next((m) => m.type === "pong" && socket.messages.filter((x) => x.type === "pong").length > pongs);
      },
      async close() {
        const adapter = (t.server as StartedServer).realtime;
        const before = adapter.size;
        socket.ws.close();
        await socket.closed;
        // The server hears the close on its own time: wait until it has let the connection go.
        for (let i = 0; i < 200 && adapter.size >= before; i++) await new Promise((resolve) => setTimeout(resolve, 2));
        await feed.settled();
      },
    };
    await connection.barrier();
    return connection;
  }
  let endpoint = endpoints.get(t.server);
  if (!endpoint) endpoints.set(t.server, (endpoint = createRealtimeEndpoint(t.server.deps)));
  const messages: Message[] = [];
  const peer = endpoint.open({
    send(text, done) {
      messages.push(JSON.parse(text) as Message);
      done();
    },
    close: () => undefined,
    bufferedAmount: 0,
  });
  peer.receive(JSON.stringify({ type: "auth", token: accessToken }));
  const connection: Connection = {
    messages,
    barrier: () => feed.settled(),
    async close() {
      peer.closed();
      await feed.settled();
    },
  };
  for (let i = 0; i < 100 && !messages.some((m) => m.type === "ready"); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  if (!messages.some((m) => m.type === "ready")) throw new Error(`no ready: ${JSON.stringify(messages)}`);
  await connection.barrier();
  return connection;
}

/** A signed-in player with helpers to connect and to befriend. */
export async function players(t: TestServer, count: number): Promise<Player[]> {
  const list: Player[] = [];
  for (let i = 0; i < count; i++) list.push(await player(t));
  return list;
}

/** Makes two players friends through the API. */
export async function befriend(a: Player, b: Player): Promise<void> {
  await a.client.social.sendFriendRequest({ userId: b.userId });
  await b.client.social.acceptFriendRequest({ userId: a.userId });
}
