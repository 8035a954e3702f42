import { defineService } from "./define-service.js";

export const DatastoreService = defineService({
  typeName: "svc.platform.v1.DatastoreService",
  localName: "datastore",
  summary: "Game save data, ordered stores (leaderboards), data export.",
  methods: {},
});
