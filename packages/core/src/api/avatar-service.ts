import { defineService } from "./define-service.js";
import * as s from "../schemas/avatar.js";

export const AvatarService = defineService({
  typeName: "svc.platform.v1.AvatarService",
  localName: "avatar",
  summary: "Reading and saving the avatar.",
  methods: {
    getAvatar: { input: s.GetAvatarRequest, output: s.Avatar, auth: "guest", scopes: ["avatar"], summary: "A user's avatar; empty userId reads the caller's." },
    setAvatar: { input: s.SetAvatarRequest, output: s.Avatar, auth: "account", scopes: ["avatar"], summary: "Saves the caller's avatar; empty base and absent proportions keep the current ones." },
  },
});
