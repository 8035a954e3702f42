import { defineService } from "./define-service.js";
import * as s from "../schemas/catalog.js";

export const CatalogService = defineService({
  typeName: "svc.platform.v1.CatalogService",
  localName: "catalog",
  summary: "Experiences, published place versions, discovery, votes, favorites, content upload, testers.",
  methods: {
    createExperience: { input: s.CreateExperienceRequest, output: s.Experience, auth: "account", scopes: ["studio"], summary: "Creates an experience (a draft) with its start place." },
    updateExperience: { input: s.UpdateExperienceRequest, output: s.Experience, auth: "account", scopes: ["studio"], summary: "Changes the fields given; empty strings keep the current value; creator only." },
    publishVersion: { input: s.PublishVersionRequest, output: s.PlaceVersion, auth: "account", scopes: ["studio"], summary: "New immutable version of the start place; goes live at once." },
    listVersions: { input: s.ListVersionsRequest, output: s.ListVersionsResponse, auth: "account", summary: "Versions newest first, paged by beforeNumber; creator only; says which is live." },
    setLiveVersion: { input: s.SetLiveVersionRequest, output: s.Experience, auth: "account", summary: "Rolls back or forward to an existing version; creator only; running sessions keep their version." },
    getExperience: { input: s.ExperienceRef, output: s.Experience, auth: "optional", scopes: ["studio"], summary: "One experience; signed-in callers get favorited and myVote." },
    listExperiences: { input: s.ListExperiencesRequest, output: s.ListExperiencesResponse, auth: "optional", summary: "Discovery: experiences by sort, search query, genre or creator." },
    listMyExperiences: { input: s.ListMyExperiencesRequest, output: s.ListExperiencesResponse, auth: "account", summary: "The caller's own experiences, whatever their visibility." },
    favorite: { input: s.FavoriteRequest, output: s.FavoriteResponse, auth: "guest", summary: "Adds or removes the experience from the caller's favorites." },
    vote: { input: s.VoteRequest, output: s.VoteResponse, auth: "account", summary: "Votes 1 or -1, or 0 to clear." },
    uploadContent: { input: s.UploadContentRequest, output: s.UploadContentResponse, auth: "account", scopes: ["studio"], summary: "Stores one blob (scene, texture, thumbnail) up to 8 MiB; returns its content-addressed URL." },
    addTester: { input: s.TesterRequest, output: s.ListTestersResponse, auth: "account", scopes: ["studio"], summary: "Lets a user see and join the private experience; creator only." },
    removeTester: { input: s.TesterRequest, output: s.ListTestersResponse, auth: "account", scopes: ["studio"], summary: "Takes a tester off the experience; creator only." },
    listTesters: { input: s.ExperienceRef, output: s.ListTestersResponse, auth: "account", scopes: ["studio"], summary: "The experience's testers; creator only." },
  },
});
