import { defineService } from "./define-service.js";

export const CatalogService = defineService({
  typeName: "svc.platform.v1.CatalogService",
  localName: "catalog",
  summary: "Experiences, published place versions, discovery, votes, favorites, content upload, testers.",
  methods: {},
});
