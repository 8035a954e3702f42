import { defineService } from "./define-service.js";

export const ChatService = defineService({
  typeName: "svc.platform.v1.ChatService",
  localName: "chat",
  summary: "Conversation inbox and read state; messages travel over the realtime connection.",
  methods: {},
});
