import type { FriendPresence } from "@playfield/client";
import type { Friend, UserSummary } from "./api-types.js";
import { byId, h } from "./dom.js";
import type { Lobby, LobbyState } from "./lobby.js";

/* The page: index.html's markup, its forms wired to the lobby, and its lists drawn from the lobby's state. */

const name = (user: UserSummary) => user.displayName || user.username;

function presenceText(presence: FriendPresence, state: LobbyState): string {
  if (presence.presence !== "in_game") return presence.presence;
  const title = state.experiences.find((e) => e.id === presence.experienceId)?.title;
  return title ? `in game: ${title}` : "in game";
}

function formValue(form: HTMLFormElement, field: string): string {
  return String(new FormData(form).get(field) ?? "").trim();
}

/** Wires the page's forms and buttons to the lobby's actions. */
function wire(lobby: Lobby): void {
  const signIn = byId<HTMLFormElement>("sign-in");
  signIn.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = (event.submitter as HTMLButtonElement | null)?.value;
    const [username, password, birthdate] = ["username", "password", "birthdate"].map((f) => formValue(signIn, f)) as [string, string, string];
    void (action === "sign-up" ? lobby.signUp(username, password, birthdate) : lobby.signIn(username, password));
  });
  byId("play-as-guest").addEventListener("click", () => void lobby.playAsGuest());
  byId("sign-out").addEventListener("click", () => void lobby.signOut());

  const search = byId<HTMLFormElement>("search");
  search.addEventListener("submit", (event) => {
    event.preventDefault();
    const query = formValue(search, "query");
    void lobby.browse(query ? { sort: "search", query } : { sort: "popular" });
  });
  byId("popular").addEventListener("click", () => {
    search.reset();
    void lobby.browse({ sort: "popular" });
  });

  byId("leave").addEventListener("click", () => void lobby.leave());
  const chat = byId<HTMLFormElement>("chat-form");
  chat.addEventListener("submit", (event) => {
    event.preventDefault();
    lobby.say(formValue(chat, "text"));
    chat.reset();
  });

  const addFriend = byId<HTMLFormElement>("add-friend");
  addFriend.addEventListener("submit", (event) => {
    event.preventDefault();
    const username = formValue(addFriend, "username");
    if (username) void lobby.addFriend(username).then(() => addFriend.reset());
  });
  byId("refresh-friends").addEventListener("click", () => void lobby.refreshFriends());
}

function friendRow(lobby: Lobby, friend: Friend, state: LobbyState): HTMLLIElement {
  const presence = state.presence.get(friend.user.id) ?? { presence: "offline" as const };
  const inMySession = state.session?.members.some((m) => m.user.id === friend.user.id) ?? false;
  return h("li", { "data-friend": friend.user.username },
    h("span", { class: `dot ${presence.presence}` }),
    h("span", { class: "name" }, name(friend.user)),
    h("span", { class: "presence" }, presenceText(presence, state)),
    state.session && !inMySession && presence.presence !== "offline"
      ? h("button", { type: "button", onclick: () => void lobby.invite(friend.user.id) }, "Invite")
      : null,
  );
}

/** Draws the lobby's state into the page. */
function render(lobby: Lobby, state: LobbyState): void {
  const { me, session } = state;
  byId("who").textContent = me ? `${name(me.user)}${me.guest ? " (guest)" : ""}` : "";
  // Signed out there is no connection to speak of: no badge, not an empty one.
  byId("connection").hidden = !me;
  byId("connection").textContent = me ? state.connection : "";
  byId("connection").dataset.state = state.connection;
  byId("sign-out").hidden = !me;
  byId("sign-in").hidden = me !== null;
  byId("notice").textContent = state.notice;

  byId("experiences").replaceChildren(...(state.experiences.length === 0
    ? [h("li", { class: "empty" }, state.discovery.sort === "search" ? "No experience matches." : "No public experiences yet.")]
    : state.experiences.map((experience) => h("li", { "data-experience": experience.title },
      h("strong", {}, experience.title),
      h("span", { class: "meta" }, `by ${name(experience.creator)} · ${experience.genre || "game"} · ${experience.playingNow} playing`),
      h("button", { type: "button", disabled: !me || session?.experienceId === experience.id, onclick: () => void lobby.join(experience.id) }, "Join"),
    ))));

  byId("session").hidden = !session;
  if (session) {
    byId("session-title").textContent = session.title;
    byId("roster").replaceChildren(...session.members.map((m) =>
      h("li", { "data-member": m.user.username }, name(m.user), m.isHost ? h("small", {}, " (host)") : null)));
    byId("chat").replaceChildren(...state.chat.map((line) =>
      h("li", { "data-message": line.messageId }, h("b", {}, `${name(line.sender)}: `), line.text)));
  }
  const guest = me?.guest ?? false;
  byId("chat-form").hidden = guest;
  byId("chat-note").hidden = !guest;

  byId("friends-panel").hidden = !me || guest;
  byId("requests").replaceChildren(...state.requests.map((user) => h("li", { "data-request": user.username },
    `${name(user)} wants to be friends `,
    h("button", { type: "button", onclick: () => void lobby.accept(user.id) }, "Accept"))));
  byId("friends").replaceChildren(...state.friends.map((friend) => friendRow(lobby, friend, state)));
  byId("invites").replaceChildren(...state.invites.map((invite) => h("li", { "data-invite": invite.sessionId },
    `${name(invite.from)} invites you to ${invite.title} `,
    h("button", { type: "button", onclick: () => void lobby.join(invite.experienceId, invite.sessionId) }, "Join"))));
}

/** Shows the lobby in the page, and keeps the page up to date. */
export function mountLobby(lobby: Lobby): void {
  wire(lobby);
  render(lobby, lobby.state);
  lobby.subscribe((state) => render(lobby, state));
}
