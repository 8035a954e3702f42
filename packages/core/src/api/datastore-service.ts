import { defineService } from "./define-service.js";
import * as s from "../schemas/datastore.js";

export const DatastoreService = defineService({
  typeName: "svc.platform.v1.DatastoreService",
  localName: "datastore",
  summary: "Game save data, ordered stores (leaderboards), data export.",
  methods: {
    get: { input: s.DatastoreGetRequest, output: s.DatastoreGetResponse, auth: "game", summary: "Reads one entry of the token's experience." },
    set: { input: s.DatastoreSetRequest, output: s.DatastoreSetResponse, auth: "game", summary: "Writes one entry, unconditionally or only at an expected version." },
    update: { input: s.DatastoreUpdateRequest, output: s.DatastoreUpdateResponse, auth: "game", summary: "Merges a JSON object patch into an entry atomically." },
    delete: { input: s.DatastoreDeleteRequest, output: s.DatastoreDeleteResponse, auth: "game", summary: "Deletes one entry; says whether it existed." },
    listKeys: { input: s.DatastoreListKeysRequest, output: s.DatastoreListKeysResponse, auth: "game", summary: "Keys in key order, a page at a time, filtered by prefix." },
    incrementOrdered: { input: s.IncrementOrderedRequest, output: s.IncrementOrderedResponse, auth: "game", summary: "Adds to an integer in an ordered store, creating the key at 0." },
    listOrdered: { input: s.ListOrderedRequest, output: s.ListOrderedResponse, auth: "game", summary: "Top (or bottom) entries of an ordered store, with their rank." },
    exportMyData: { input: s.ExportMyDataRequest, output: s.ExportMyDataResponse, auth: "account", summary: "Everything games stored about the caller." },
  },
});
