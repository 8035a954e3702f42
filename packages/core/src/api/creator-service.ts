import { defineService } from "./define-service.js";

export const CreatorService = defineService({
  typeName: "svc.platform.v1.CreatorService",
  localName: "creator",
  summary: "Overview, analytics, sales, uploads, payouts.",
  methods: {},
});
