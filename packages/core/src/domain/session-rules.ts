/* The pure rules of game sessions, gathered for the package's entry. */
export * from "./engine-version.js";
export * from "./cook-target.js";
export * from "./session-host.js";
export * from "./join-permission.js";
export * from "./matchmaking.js";
