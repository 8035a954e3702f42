import {
  createClient, createLocalStorageTokenStore, createRealtime, friendPresence, PlayfieldError,
  type FriendPresence, type FriendPresenceState, type GameInviteEvent, type PlayfieldClient, type Realtime, type RealtimeState,
} from "@playfield/client";
import type { Experience, Friend, Me, UserSummary } from "./api-types.js";

/** What the experience list shows: the most played, or a search. */
export type Discovery = { sort: "popular" } | { sort: "search"; query: string };

/** One member of the session's roster. */
export interface RosterMember { user: UserSummary; isHost: boolean }

/** The game session the player is in. */
export interface LobbySession { sessionId: string; experienceId: string; title: string; members: RosterMember[] }

/** One line of the session's chat. */
export interface ChatLine { messageId: string; sender: UserSummary; text: string }

/** Everything the page shows; a new object on every change. */
export interface LobbyState {
  me: Me | null;
  /** The realtime connection's state, or `offline` while signed out. */
  connection: RealtimeState | "offline";
  discovery: Discovery;
  experiences: Experience[];
  friends: Friend[];
  /** Friends who are not offline, from the realtime connection. */
  presence: ReadonlyMap<string, FriendPresence>;
  /** Friend requests waiting for the player's answer. */
  requests: UserSummary[];
  session: LobbySession | null;
  chat: ChatLine[];
  invites: GameInviteEvent[];
  /** A line for the player: what went wrong, or what was just done; empty when there is nothing to say. */
  notice: string;
}

/** The lobby: the state a page renders, and what the player can do. */
export interface Lobby {
  readonly state: LobbyState;
  readonly client: PlayfieldClient;
  subscribe(listener: (state: LobbyState) => void): () => void;
  /** Resumes a sign-in kept in localStorage, and lists the popular experiences. */
  start(): Promise<void>;
  playAsGuest(): Promise<void>;
  signIn(username: string, password: string): Promise<void>;
  signUp(username: string, password: string, birthdate: string): Promise<void>;
  signOut(): Promise<void>;
  browse(discovery: Discovery): Promise<void>;
  /** Joins an experience: a given session (an invite's), or the one matchmaking picks. */
  join(experienceId: string, sessionId?: string): Promise<void>;
  leave(): Promise<void>;
  say(text: string): void;
  addFriend(username: string): Promise<void>;
  accept(userId: string): Promise<void>;
  refreshFriends(): Promise<void>;
  invite(userId: string): Promise<void>;
}

// The server drops a session member silent for 60 s (docs/sessions.md); beat well inside that.
const HEARTBEAT_MS = 15_000;

const INITIAL: LobbyState = {
  me: null, connection: "offline", discovery: { sort: "popular" }, experiences: [], friends: [],
  presence: new Map(), requests: [], session: null, chat: [], invites: [], notice: "",
};

/**
 * Creates the lobby of a Playfield API at `server`: a typed client whose
 * tokens stay in localStorage (a reload stays signed in), and, while signed
 * in, one realtime connection for rosters, invites, chat and presence.
 */
export function createLobby(server: string): Lobby {
  const client = createClient({
    baseUrl: server,
    clientName: "Web lobby example",
    tokenStore: createLocalStorageTokenStore({ key: `playfield-lobby.tokens:${server}` }),
    timeoutMs: 10_000,
  });
  let state = INITIAL;
  const listeners = new Set<(state: LobbyState) => void>();
  let realtime: Realtime | null = null;
  let presence: FriendPresenceState | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let sent = 0;

  const update = (change: Partial<LobbyState>) => {
    state = { ...state, ...change };
    for (const listener of listeners) listener(state);
  };

  /** Runs an action; a failure becomes the notice instead of an unhandled rejection. */
  const attempt = async (action: () => Promise<void>) => {
    try {
      update({ notice: "" });
      await action();
    } catch (error) {
      update({ notice: error instanceof PlayfieldError ? `${error.code}: ${error.rawMessage}` : String(error) });
    }
  };

  const connect = () => {
    const connection = createRealtime(client, { url: server });
    realtime = connection;
    presence = friendPresence(connection);
    presence.subscribe((current) => {
      update({ presence: current });
      // A presence from someone not yet listed: a new friend (a request accepted elsewhere).
      if ([...current.keys()].some((id) => !state.friends.some((f) => f.user.id === id))) void lobby.refreshFriends();
    });
    connection.onState((connectionState) => update({ connection: connectionState }));
    connection.on("session_members", (event) => {
      if (event.sessionId !== state.session?.sessionId) return;
      update({ session: { ...state.session, members: event.members.map(({ user, isHost }) => ({ user, isHost })) } });
    });
    connection.on("game_invite", (invite) => {
      update({ invites: [...state.invites.filter((i) => i.sessionId !== invite.sessionId), invite] });
    });
    connection.on("chat_message", (message) => {
      if (message.channel !== `session:${state.session?.sessionId}`) return;
      update({ chat: [...state.chat, { messageId: message.messageId, sender: message.sender, text: message.text }] });
    });
    connection.on("error", (error) => update({ notice: `${error.code}: ${error.message}` }));
  };

  const signedIn = async (me: Me) => {
    update({ me });
    connect();
    await Promise.all([lobby.browse(state.discovery), me.guest ? Promise.resolve() : lobby.refreshFriends()]);
  };

  const stopSession = () => {
    clearInterval(heartbeat);
    update({ session: null, chat: [] });
  };

  const lobby: Lobby = {
    get state() { return state; },
    client,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start: () => attempt(async () => {
      if (await client.auth.isSignedIn()) {
        try {
          await signedIn(await client.identity.getMe());
          return;
        } catch (error) {
          // Tokens from an earlier run the server no longer knows (an in-memory server restarted).
          if (!(error instanceof PlayfieldError && error.code === "unauthenticated")) throw error;
          await client.auth.clear();
        }
      }
      await lobby.browse(state.discovery);
    }),
    playAsGuest: () => attempt(async () => signedIn((await client.identity.startGuest()).me)),
    signIn: (username, password) => attempt(async () => signedIn((await client.identity.signIn({ username, password })).me)),
    signUp: (username, password, birthdate) => attempt(async () => signedIn((await client.identity.signUp({ username, password, birthdate })).me)),
    signOut: () => attempt(async () => {
      if (state.session) await lobby.leave();
      presence?.stop();
      realtime?.close();
      realtime = null;
      await client.identity.signOut().catch(() => client.auth.clear());
      update({ ...INITIAL, experiences: state.experiences, discovery: state.discovery });
    }),
    browse: (discovery) => attempt(async () => {
      const { experiences } = await client.catalog.listExperiences(
        discovery.sort === "search" ? { sort: "search", query: discovery.query, limit: 20 } : { sort: "popular", limit: 20 },
      );
      update({ discovery, experiences });
    }),
    join: (experienceId, sessionId) => attempt(async () => {
      if (state.session) await client.session.leave({ sessionId: state.session.sessionId });
      stopSession();
      const joined = await client.session.join({ experienceId, sessionId: sessionId ?? "", platform: "web" });
      const title = state.experiences.find((e) => e.id === experienceId)?.title
        ?? state.invites.find((i) => i.sessionId === joined.sessionId)?.title ?? experienceId;
      update({
        session: {
          sessionId: joined.sessionId, experienceId, title,
          members: joined.members.map((user) => ({ user, isHost: user.id === joined.hostUserId })),
        },
        invites: state.invites.filter((i) => i.sessionId !== joined.sessionId),
      });
      heartbeat = setInterval(() => {
        if (state.session) void client.session.heartbeat({ sessionId: state.session.sessionId }).catch(() => undefined);
      }, HEARTBEAT_MS);
    }),
    leave: () => attempt(async () => {
      const session = state.session;
      stopSession();
      if (session) await client.session.leave({ sessionId: session.sessionId });
    }),
    say(text) {
      const session = state.session;
      if (!session || !text.trim()) return;
      update({ notice: "" });
      sent += 1;
      const accepted = realtime?.chat(`session:${session.sessionId}`, text, `lobby-${Date.now().toString(36)}-${sent}`) ?? false;
      if (!accepted) update({ notice: "not connected: the message was not sent" });
    },
    addFriend: (username) => attempt(async () => {
      const profile = await client.social.getProfile({ username });
      await client.social.sendFriendRequest({ userId: profile.user.id });
      update({ notice: `friend request sent to ${profile.user.username}` });
    }),
    accept: (userId) => attempt(async () => {
      await client.social.acceptFriendRequest({ userId });
      await lobby.refreshFriends();
    }),
    refreshFriends: () => attempt(async () => {
      const [{ friends }, { incoming }] = await Promise.all([client.social.listFriends({}), client.social.listFriendRequests()]);
      update({ friends, requests: incoming });
    }),
    invite: (userId) => attempt(async () => {
      if (!state.session) return;
      await client.session.inviteToSession({ sessionId: state.session.sessionId, userId });
      update({ notice: "invite sent" });
    }),
  };
  return lobby;
}
