import { defineService } from "./define-service.js";
import * as s from "../schemas/safety.js";

export const SafetyService = defineService({
  typeName: "svc.platform.v1.SafetyService",
  localName: "safety",
  summary: "Reports of players and experiences to the moderation queue.",
  methods: {
    reportPlayer: { input: s.ReportPlayerRequest, output: s.ReportResponse, auth: "account", summary: "Reports a player to the moderation queue; rate-limited." },
    reportExperience: { input: s.ReportExperienceRequest, output: s.ReportResponse, auth: "account", summary: "Reports an experience to the moderation queue; rate-limited." },
  },
});
