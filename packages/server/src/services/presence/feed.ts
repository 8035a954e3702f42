import { tables, type Tx } from "@playfield/core";
import type { RealtimeEvent } from "../../ports/realtime-hub.js";
import type { ServerDeps } from "../../server-deps.js";
import { asSeenBy, OFFLINE, presenceToFriends, type Presence } from "./presence.js";
import { presenceChanges, presenceEvent } from "./changes.js";
import { friendIds } from "../social/graph.js";
import { seersAmong } from "../catalog/access.js";

/*
 * The `presence` events of a server: after anything that may change where a
 * user is (a connection opens or closes, a session join or leave, a silent
 * member dropped, `showOnlineStatus`, a friendship begun or ended), the feed
 * reads the user's presence (presence.ts's rule) and friends, and tells each
 * connected viewer whose last word about the user differs. It remembers
 * what each connected viewer was told (only presences other than
 * `offline`), so an event is sent only on a change, and a former friend's
 * last word is `offline`. Work runs one job at a time, after the caller's
 * transaction committed, so events go out in the order of the changes.
 * With several server processes, each feed tells only its own connected
 * viewers (`publishHere`), and the presence directory carries the word of
 * every change to the other processes' feeds, which read the same facts.
 */

/** The presence events of one server. */
export interface PresenceFeed {
  /** The presence of these users may have changed (their transaction committed): tells whoever must know. Resolves once sent. */
  changed(userIds: Iterable<string>): Promise<void>;
  /** A realtime connection of `userId` opened: it gets the presence of the user's friends who are not offline; friends learn the user is online. */
  opened(userId: string, send: (event: RealtimeEvent) => void): Promise<void>;
  /** A realtime connection of `userId` closed: after the last one, friends learn the user's presence without it. */
  closed(userId: string): Promise<void>;
  /** Resolves once every announcement asked for so far is out. */
  settled(): Promise<void>;
}

/** What was read about one user, in a transaction, to decide who to tell. */
interface SubjectFacts {
  subject: string;
  current: Presence;
  friends: ReadonlySet<string>;
  /** The friends who may see the experience `current` names (all of them when it names none). */
  seers: ReadonlySet<string>;
}

/** Creates the presence feed of a server's dependencies (one per server: see `presenceFeed`). */
export function createPresenceFeed(deps: ServerDeps): PresenceFeed {
  /** Open endpoint connections per user. */
  const connections = new Map<string, number>();
  /** What each connected viewer was last told, by user (absent: `offline`). */
  const told = new Map<string, Map<string, Presence>>();
  /** The viewers told something other than `offline` about each user. */
  const audience = new Map<string, Set<string>>();
  let tail: Promise<void> = Promise.resolve();

  const enqueue = (job: () => Promise<void>): Promise<void> => {
    // A failed announcement must not fail the call whose change already committed.
    const run = tail.then(job).catch((error: unknown) => { deps.onInternalError(error); });
    tail = run;
    return run;
  };
  /** Waits for a directory update; a failed one is reported, and this process's viewers are still told. */
  const reported = (update: Promise<void>) => update.catch((error: unknown) => { deps.onInternalError(error); });

  function remember(viewer: string, subject: string, presence: Presence): void {
    const mine = told.get(viewer);
    if (!mine) return;
    if (presence.presence === "offline") {
      mine.delete(subject);
      audience.get(subject)?.delete(viewer);
      if (audience.get(subject)?.size === 0) audience.delete(subject);
      return;
    }
    mine.set(subject, presence);
    let viewers = audience.get(subject);
    if (!viewers) audience.set(subject, (viewers = new Set()));
    viewers.add(viewer);
  }

  function forget(viewer: string): void {
    for (const subject of told.get(viewer)?.keys() ?? []) remember(viewer, subject, OFFLINE);
    told.delete(viewer);
  }

  async function readFacts(tx: Tx, subject: string): Promise<SubjectFacts> {
    const [current, friends] = await Promise.all([presenceToFriends(tx, deps, subject), friendIds(tx, subject)]);
    if (current.presence !== "in_game") return { subject, current, friends: new Set(friends), seers: new Set(friends) };
    const experience = await tx.get(tables.experiences, current.experienceId);
    return { subject, current, friends: new Set(friends), seers: experience ? await seersAmong(tx, experience, friends) : new Set() };
  }

  /** What `viewer` may see of a subject's presence now. */
  const seenBy = (viewer: string, facts: SubjectFacts): Presence =>
    asSeenBy(facts.friends.has(viewer) ? facts.current : OFFLINE, facts.seers.has(viewer));

  function announce(facts: SubjectFacts): void {
    const { subject, current, friends, seers } = facts;
    const viewers = [...friends].filter((viewer) => told.has(viewer));
    for (const viewer of audience.get(subject) ?? []) viewers.push(viewer);
    const changes = presenceChanges({
      current, friends, viewers, seesExperience: (viewer) => seers.has(viewer), told: (viewer) => told.get(viewer)?.get(subject) ?? OFFLINE,
    });
    for (const change of changes) {
      for (const viewer of change.to) remember(viewer, subject, change.presence);
      deps.realtime.publishHere(change.to, presenceEvent(subject, change.presence));
    }
  }

  /** Reads these users' facts and tells this process's viewers. */
  function reannounce(subjects: string[]): Promise<void> {
    return enqueue(async () => {
      const facts = await deps.storage.transact((tx) => Promise.all(subjects.map((subject) => readFacts(tx, subject))));
      for (const fact of facts) announce(fact);
    });
  }

  // Changes made on other processes, and users gone with a process that stopped.
  deps.presence.onChanged((userIds) => { void reannounce([...new Set(userIds)]); });

  return {
    changed(userIds) {
      const subjects = [...new Set(userIds)];
      deps.presence.broadcast(subjects);
      return reannounce(subjects);
    },

    opened(userId, send) {
      connections.set(userId, (connections.get(userId) ?? 0) + 1);
      const registered = reported(deps.presence.connected(userId));
      return enqueue(async () => {
        await registered;
        if (!connections.has(userId)) return;
        deps.presence.broadcast([userId]);
        const first = !told.has(userId);
        const { mine, friends } = await deps.storage.transact(async (tx) => {
          const mine = await readFacts(tx, userId);
          // The first connection reads its friends' presence; later ones get what the first was told since.
          const friends = first ? await Promise.all([...mine.friends].map((friend) => readFacts(tx, friend))) : [];
          return { mine, friends };
        });
        if (first) {
          told.set(userId, new Map());
          for (const friend of friends) remember(userId, friend.subject, seenBy(userId, friend));
        }
        for (const [subject, presence] of told.get(userId) ?? []) send(presenceEvent(subject, presence));
        announce(mine);
      });
    },

    closed(userId) {
      const left = (connections.get(userId) ?? 0) - 1;
      if (left > 0) connections.set(userId, left);
      else connections.delete(userId);
      const unregistered = reported(deps.presence.disconnected(userId));
      return enqueue(async () => {
        await unregistered;
        if (connections.has(userId)) return;
        deps.presence.broadcast([userId]);
        forget(userId);
        const facts = await deps.storage.transact((tx) => readFacts(tx, userId));
        announce(facts);
      });
    },

    async settled() {
      let last: Promise<void>;
      do {
        last = tail;
        await last;
      } while (last !== tail);
    },
  };
}

const feeds = new WeakMap<ServerDeps, PresenceFeed>();

/** The presence feed of a server (made on first use). */
export function presenceFeed(deps: ServerDeps): PresenceFeed {
  let feed = feeds.get(deps);
  if (!feed) feeds.set(deps, (feed = createPresenceFeed(deps)));
  return feed;
}

/** Tells friends of these users their new presence, after the transaction that may have changed it committed. */
export function announcePresence(deps: ServerDeps, userIds: Iterable<string>): Promise<void> {
  return presenceFeed(deps).changed(userIds);
}
