/*
 * Username, password and display-name rules (the spec leaves them open; see
 * docs/identity.md). Pure: the schemas and the services share them.
 */

/** 3 to 20 letters, digits or _, not starting or ending with _. */
export const USERNAME_PATTERN = /^(?!_)[A-Za-z0-9_]{3,20}(?<!_)$/;
export const USERNAME_RULE = "3 to 20 letters, digits or _, not starting or ending with _";

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 200;
export const PASSWORD_RULE = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;

export const DISPLAY_NAME_MAX = 30;

/** The form usernames are compared in: they are unique ignoring case. */
export function usernameKey(username: string): string {
  return username.toLowerCase();
}

/** Why a password may not be used for this username, or null when it may. */
export function passwordProblem(password: string, username: string): string | null {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return PASSWORD_RULE;
  if (usernameKey(password) === usernameKey(username)) return "must not be the username";
  return null;
}
