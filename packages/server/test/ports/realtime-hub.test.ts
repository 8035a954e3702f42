/*
 * The realtime hub's fan-out (docs/realtime.md, "Fan-out"): an event for
 * MANY_FROM users or more is published once and each process delivers it
 * to its own recipients; fewer go once per recipient. Either way every
 * recipient's connections get it once, in publish order with the user's
 * other events.
 */
import { describe, expect, it } from "vitest";
import { createLocalPubSub, type RealtimePubSub } from "../../src/ports/pubsub.js";
import { createRealtimeHub, MANY_FROM, type RealtimeEvent, type RealtimeHub } from "../../src/ports/realtime-hub.js";

/** The in-process pub/sub, with every publish and subscribe counted by topic. */
function countedPubSub() {
  const inner = createLocalPubSub();
  const published: string[] = [];
  const subscribed: string[] = [];
  const pubsub: RealtimePubSub = {
    publish(topic, payload) {
      published.push(topic);
      inner.publish(topic, payload);
    },
    subscribe(topic, listener) {
      subscribed.push(topic);
      return inner.subscribe(topic, listener);
    },
  };
  return { pubsub, published, subscribed };
}

/** Connects `userId` to `hub`: answers what the connection receives. */
function connect(hub: RealtimeHub, userId: string): RealtimeEvent[] {
  const got: RealtimeEvent[] = [];
  hub.attach({ userId, send: (event) => got.push(event), sendText: (text) => got.push(JSON.parse(text) as RealtimeEvent) });
  return got;
}

const event = (n: number) => ({ type: "presence", userId: `n${n}`, presence: { status: "online" } }) as unknown as RealtimeEvent;
const users = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);

describe("realtime hub fan-out", () => {
  it("should publish an event for many users once, and deliver it once to each recipient of each process", async () => {
    const { pubsub, published } = countedPubSub();
    // Two processes on one pub/sub: the even users on the first, the odd on the second.
    const hubs = [createRealtimeHub({ pubsub }), createRealtimeHub({ pubsub })];
    const recipients = users(20);
    const got = new Map(recipients.map((userId, i) => [userId, connect(hubs[i % 2]!, userId)]));
    const bystander = connect(hubs[0]!, "nobody");
    published.length = 0;
    hubs[1]!.publishMany([...recipients, recipients[0]!], event(1));
    expect(published).toEqual(["many"]);
    for (const userId of recipients) expect(got.get(userId)).toEqual([event(1)]);
    expect(bystander).toEqual([]);
  });

  it("should publish once per recipient below MANY_FROM", () => {
    const { pubsub, published } = countedPubSub();
    const hub = createRealtimeHub({ pubsub });
    const recipients = users(MANY_FROM - 1);
    const got = recipients.map((userId) => connect(hub, userId));
    published.length = 0;
    hub.publishMany(recipients, event(2));
    expect(published).toEqual(recipients.map((userId) => `user:${userId}`));
    for (const list of got) expect(list).toEqual([event(2)]);
  });

  it("should keep a user's events in publish order across one-user and many-user events", () => {
    const { pubsub } = countedPubSub();
    const hub = createRealtimeHub({ pubsub });
    const got = connect(hub, "u0");
    hub.publish("u0", event(1));
    hub.publishMany(users(MANY_FROM), event(2));
    hub.publishMany(users(2), event(3));
    hub.publish("u0", event(4));
    expect(got).toEqual([event(1), event(2), event(3), event(4)]);
  });

  it("should not hear events for many until it holds a connection", () => {
    const { pubsub, subscribed } = countedPubSub();
    const hub = createRealtimeHub({ pubsub });
    hub.publishMany(users(MANY_FROM), event(1));
    expect(subscribed).toEqual([]);
    connect(hub, "u0");
    expect(subscribed).toEqual(["many", "user:u0"]);
  });

  it("should ignore a payload on the many topic that is not one of its own", () => {
    const { pubsub } = countedPubSub();
    const hub = createRealtimeHub({ pubsub });
    const got = connect(hub, "u0");
    for (const junk of ["", "garbage", "\n", "[1,2]\n{}", "{\"u0\":1}\n{}", "[\"u0\"", "null\n{}"]) {
      expect(() => pubsub.publish("many", junk)).not.toThrow();
    }
    expect(got).toEqual([]);
  });
});
