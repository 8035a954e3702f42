import { defineService } from "./define-service.js";

export const SafetyService = defineService({
  typeName: "svc.platform.v1.SafetyService",
  localName: "safety",
  summary: "Reports of players and experiences to the moderation queue.",
  methods: {},
});
