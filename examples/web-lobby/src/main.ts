/*
 * The web lobby: a page on its own origin that talks to a Playfield server
 * through the typed client (see README.md).
 */
import { createLobby } from "./lobby.js";
import { mountLobby } from "./lobby-view.js";
import { serverUrl } from "./server-url.js";

const lobby = createLobby(serverUrl(location.search));
mountLobby(lobby);
void lobby.start();
