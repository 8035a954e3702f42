import { defineService } from "./define-service.js";

export const SessionService = defineService({
  typeName: "svc.platform.v1.SessionService",
  localName: "session",
  summary: "Joining games, heartbeats, session rosters, invites.",
  methods: {},
});
