import { defineService } from "./define-service.js";
import * as s from "../schemas/chat.js";

export const ChatService = defineService({
  typeName: "svc.platform.v1.ChatService",
  localName: "chat",
  summary: "Conversation inbox and read state; messages travel over the realtime connection.",
  methods: {
    listConversations: { input: s.ListConversationsRequest, output: s.ListConversationsResponse, auth: "account", summary: "The caller's conversations, with their last message and unread count." },
    markRead: { input: s.MarkReadRequest, output: s.MarkReadResponse, auth: "account", summary: "Marks a channel read up to and including a message; answers the caller's unread total." },
  },
});
