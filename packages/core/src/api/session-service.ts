import { defineService } from "./define-service.js";
import * as s from "../schemas/session.js";

export const SessionService = defineService({
  typeName: "svc.platform.v1.SessionService",
  localName: "session",
  summary: "Joining games, heartbeats, session rosters, invites.",
  methods: {
    join: { input: s.JoinRequest, output: s.JoinResponse, auth: "guest", summary: "Joins a session (empty sessionId = matchmake) and returns its game token." },
    leave: { input: s.LeaveRequest, output: s.LeaveResponse, auth: "guest", summary: "Leaves the session; its game token stops working." },
    heartbeat: { input: s.HeartbeatRequest, output: s.HeartbeatResponse, auth: "guest", summary: "Keeps the caller in the session's roster." },
    listSessions: { input: s.ListSessionsRequest, output: s.ListSessionsResponse, auth: "optional", summary: "Running sessions of an experience; signed-in callers see their friends in them." },
    getSession: { input: s.GetSessionRequest, output: s.SessionDetail, auth: "guest", summary: "Live roster of one session." },
    inviteToSession: { input: s.InviteToSessionRequest, output: s.InviteToSessionResponse, auth: "account", summary: "Invites a friend into the caller's session; the friend gets a game_invite realtime message." },
  },
});
