import { defineService } from "./define-service.js";

export const EconomyService = defineService({
  typeName: "svc.platform.v1.EconomyService",
  localName: "economy",
  summary: "Wallet, credit packs, top-ups, items, buying, inventory.",
  methods: {},
});
