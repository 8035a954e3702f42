import { createClient } from "@playfield/client";
import type { Storage } from "@playfield/core";
import { createMemoryServer, type MemoryServerOptions } from "@playfield/server-memory";
import { createLocalRealtimeHub, createMovableClock, storedSigningKeys, type MovableClock, type RealtimeEvent, type RealtimeHub } from "../src/index.js";
import type { TestServer } from "./fixtures.js";

/*
 * Two servers on one storage, as two processes behind a load balancer
 * would run: each its own server (own heap, own realtime hub, own
 * verified-token cache; on a database, its own connection pool), sharing
 * only the stored data, the signing keys they read from it (as
 * `playfield-server` does) and the time (one clock, as machines share the
 * wall clock). Whatever one server's state does not
 * reach the other shows up as a difference between them.
 */

/** One event a server's hub was asked to deliver. */
export interface Published {
  server: 0 | 1;
  userIds: string[];
  event: RealtimeEvent;
}

export interface TwoServers {
  /** The two servers, each reached in process through its own fetch. */
  servers: [TestServer, TestServer];
  /** The first server's storage, to look at what both wrote. */
  storage: Storage;
  /** The clock both read, frozen: tests move it. */
  clock: MovableClock;
  /** Every event either server published, in order. */
  published: Published[];
}

/** A local hub that also logs what it publishes. */
function recordingHub(server: 0 | 1, log: Published[]): RealtimeHub {
  const hub = createLocalRealtimeHub();
  return {
    ...hub,
    publish(userId, event) {
      log.push({ server, userIds: [userId], event });
      hub.publish(userId, event);
    },
    publishMany(userIds, event) {
      const ids = [...userIds];
      log.push({ server, userIds: ids, event });
      hub.publishMany(ids, event);
    },
  };
}

/** Two servers with `options`, each on its storage of one store's data (the caller owns and closes them). */
export async function twoServers(storages: readonly [Storage, Storage], options: Omit<MemoryServerOptions, "storage" | "clock" | "keys" | "realtime"> = {}): Promise<TwoServers> {
  const clock = createMovableClock();
  clock.freeze();
  const published: Published[] = [];
  const server = async (index: 0 | 1): Promise<TestServer> => {
    const storage = storages[index];
    const keys = await storedSigningKeys(storage, clock);
    const created = createMemoryServer({ ...options, storage, clock, keys, realtime: recordingHub(index, published) });
    const baseUrl = `http://server-${index}.test`;
    return {
      server: created,
      baseUrl,
      fetch: created.fetch,
      client: (o = {}) => createClient({ baseUrl, fetch: created.fetch, ...o }),
      [Symbol.asyncDispose]: async () => {},
    };
  };
  return { servers: [await server(0), await server(1)], storage: storages[0], clock, published };
}
