import { defineService } from "./define-service.js";

export const AvatarService = defineService({
  typeName: "svc.platform.v1.AvatarService",
  localName: "avatar",
  summary: "Reading and saving the avatar.",
  methods: {},
});
