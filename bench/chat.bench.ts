/*
 * Chat delivery figures: messages sent by one member of a 100-member group,
 * each member on its own WebSocket, through Playfield's realtime endpoint
 * (chat_send: checks, one transaction, fan-out through the hub, chat_ack),
 * against a raw `ws` relay of the same payload (the server parses the
 * frame, broadcasts one chat_message-sized payload to the 100 sockets and
 * acknowledges the sender). Both keep 32 sends in flight and count a
 * message delivered when every member's socket has it; clients run in this
 * process in both cases.
 *
 *   node --conditions=@playfield/source --import tsx bench/chat.bench.ts
 */
import { tables } from "@playfield/core";
import { startServer, type SeededUser, type StartedServer } from "@playfield/server-memory";
import { WebSocket, WebSocketServer } from "ws";
import { formatDuration, formatRate } from "./lib/measure.js";

const MEMBERS = 100;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const WINDOW = 32;

/** A connected socket that counts the messages of one type. */
interface Member {
  ws: WebSocket;
  received: number;
}

function connect(url: string, count: string, token?: string): Promise<Member> {
  const ws = new WebSocket(url);
  const member: Member = { ws, received: 0 };
  return new Promise((resolve, reject) => {
    ws.once("error", reject);
    ws.on("message", (data) => {
      const text = data.toString();
      if (text.includes(count)) member.received += 1;
      else if (text.includes("\"ready\"") || text.includes("\"hello\"")) resolve(member);
    });
    ws.once("open", () => ws.send(JSON.stringify(token ? { type: "auth", token } : { type: "hello" })));
  });
}

/**
 * Sends `MESSAGES` frames from `sender` with WINDOW unacknowledged at most;
 * answers ms from the first send until every member has every message.
 */
async function run(sender: WebSocket, members: Member[], frame: (i: number) => string, isAck: (text: string) => boolean): Promise<number> {
  for (const m of members) m.received = 0;
  let sent = 0;
  let acked = 0;
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    const pump = () => {
      while (sent < MESSAGES && sent - acked < WINDOW) sender.send(frame(sent++));
    };
    const check = setInterval(() => {
      if (members.every((m) => m.received >= MESSAGES)) {
        clearInterval(check);
        sender.off("message", onMessage);
        resolve();
      }
    }, 1);
    const onMessage = (data: unknown) => {
      const text = String(data);
      if (text.includes("\"error\"")) reject(new Error(text));
      if (isAck(text)) {
        acked += 1;
        pump();
      }
    };
    sender.on("message", onMessage);
    pump();
  });
  return performance.now() - start;
}

async function playfieldCase(): Promise<{ run: () => Promise<number>; close: () => Promise<void> }> {
  const server: StartedServer = await startServer({ port: 0, environment: "production", sessionSweepMs: 0, chatRate: null, websocket: { maxFrames: null } });
  const url = `${server.url.replace("http", "ws")}/realtime`;
  const users: SeededUser[] = [];
  for (let i = 0; i < MEMBERS; i++) users.push(await server.seed.user());
  const now = server.clock.now();
  await server.deps.storage.transact(async (tx) => {
    await tx.put(tables.groups, { id: "grp_bench", name: "Bench", nameKey: "bench", description: "", ownerId: users[0]!.userId, memberCount: MEMBERS, createdAt: now });
    for (const [i, u] of users.entries()) {
      await tx.put(tables.groupMembers, { id: `grp_bench:${u.userId}`, groupId: "grp_bench", userId: u.userId, rank: i === 0 ? 255 : 1, joinedAt: now });
    }
  });
  const members = await Promise.all(users.map((u) => connect(url, "\"chat_message\"", u.accessToken)));
  // The sender's own connection hears its message too (a member of the group).
  const sender = members[0]!.ws;
  let round = 0;
  return {
    run: () => {
      round += 1;
      return run(sender, members, (i) => JSON.stringify({ type: "chat_send", channel: "group:grp_bench", text: `hello everyone, message ${i}`, clientMessageId: `r${round}-${i}` }), (t) => t.includes("\"chat_ack\""));
    },
    close: async () => {
      for (const m of members) m.ws.close();
      await server.close();
    },
  };
}

async function rawCase(): Promise<{ run: () => Promise<number>; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => wss.once("listening", resolve));
  const sockets = new Set<WebSocket>();
  const sender = { id: "usr_bench", username: "bench", displayName: "bench", headshotUrl: "/avatars/usr_bench/headshot.svg?v=0" };
  wss.on("connection", (ws) => {
    ws.on("message", (data) => {
      const m = JSON.parse(data.toString()) as { type: string; text?: string; clientMessageId?: string };
      if (m.type === "hello") {
        sockets.add(ws);
        ws.send("{\"type\":\"hello\"}");
        return;
      }
      const sentAt = new Date().toISOString();
      const payload = JSON.stringify({ type: "chat_message", messageId: "msg_0123456789abcdef", channel: "group:grp_bench", sender, text: m.text, sentAt });
      for (const s of sockets) s.send(payload);
      ws.send(JSON.stringify({ type: "ack", clientMessageId: m.clientMessageId }));
    });
  });
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  const members = await Promise.all(Array.from({ length: MEMBERS }, () => connect(url, "\"chat_message\"")));
  const senderWs = members[0]!.ws;
  return {
    run: () => run(senderWs, members, (i) => JSON.stringify({ type: "send", text: `hello everyone, message ${i}`, clientMessageId: `c${i}` }), (t) => t.includes("\"ack\"")),
    close: async () => {
      for (const m of members) m.ws.close();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
}

const raw = await rawCase();
const playfield = await playfieldCase();
try {
  // Warm up both, then measure in turns and keep each case's best round.
  await raw.run();
  await playfield.run();
  const best = { raw: Infinity, playfield: Infinity };
  for (let round = 0; round < 3; round++) {
    best.raw = Math.min(best.raw, await raw.run());
    best.playfield = Math.min(best.playfield, await playfield.run());
  }
  const rate = (ms: number) => (MESSAGES * MEMBERS) / (ms / 1000);
  console.log(`\n### Chat delivery to a group of ${MEMBERS}, each member on its own WebSocket (${MESSAGES} messages, ${WINDOW} in flight)\n`);
  console.log("| case | time | messages/s | deliveries/s | vs raw ws |");
  console.log("|---|---:|---:|---:|---:|");
  console.log(`| raw \`ws\` relay, same payload (baseline) | ${formatDuration(best.raw)} | ${formatRate(MESSAGES / (best.raw / 1000))} | ${formatRate(rate(best.raw))} | 1.00 |`);
  console.log(`| Playfield chat_send → chat_message | ${formatDuration(best.playfield)} | ${formatRate(MESSAGES / (best.playfield / 1000))} | ${formatRate(rate(best.playfield))} | ${(best.raw / best.playfield).toFixed(2)} |`);
} finally {
  await raw.close();
  await playfield.close();
}
process.exit(0);
