import type { PlayfieldClient } from "@playfield/client";

/* The API's shapes the lobby shows, read off the typed client's answers. */
export type Me = Awaited<ReturnType<PlayfieldClient["identity"]["getMe"]>>;
export type Experience = Awaited<ReturnType<PlayfieldClient["catalog"]["listExperiences"]>>["experiences"][number];
export type Friend = Awaited<ReturnType<PlayfieldClient["social"]["listFriends"]>>["friends"][number];
export type UserSummary = Me["user"];
