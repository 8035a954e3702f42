import { defineService } from "./define-service.js";

export const SocialService = defineService({
  typeName: "svc.platform.v1.SocialService",
  localName: "social",
  summary: "Profiles, friends, follows, groups (communities), blocking.",
  methods: {},
});
