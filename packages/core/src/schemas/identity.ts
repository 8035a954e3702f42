import { z } from "zod";
import { bool, int64, int32, list, message, protoEnum, string, timestamp } from "../wire/fields.js";
import { AGE_BAND_VALUES } from "../domain/age-band.js";
import { DISPLAY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE, USERNAME_PATTERN, USERNAME_RULE } from "../domain/account-rules.js";
import { empty, UserSummary } from "./common.js";

export const AgeBandSchema = protoEnum("AgeBand", AGE_BAND_VALUES);

const PRIVACY = ["everyone", "friends", "nobody"] as const;
const privacy = () => string(z.string().refine((v) => v === "" || (PRIVACY as readonly string[]).includes(v), { error: "one of everyone, friends, nobody" }));

export const AccountSettings = message("AccountSettings", {
  whoCanMessage: privacy(),
  whoCanFriend: privacy(),
  whoCanJoin: privacy(),
  showOnlineStatus: z.boolean().optional(),
  emailNotifications: z.boolean().optional(),
  theme: string(z.string().max(32, { error: "at most 32 characters" })),
});

export const Me = message("Me", {
  user: UserSummary,
  ageBand: AgeBandSchema,
  createdAt: timestamp(),
  guest: bool(),
});

export const AuthResponse = message("AuthResponse", {
  accessToken: string(),
  refreshToken: string(),
  expiresInSeconds: int64(),
  me: Me,
});

const username = () => string(z.string().regex(USERNAME_PATTERN, { error: USERNAME_RULE }));
const newPassword = () => string(z.string().min(PASSWORD_MIN, { error: PASSWORD_RULE }).max(PASSWORD_MAX, { error: PASSWORD_RULE }));

export const SignUpRequest = message("SignUpRequest", {
  username: username(),
  password: newPassword(),
  birthdate: string(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "a date as YYYY-MM-DD" })),
  displayName: string(z.string().max(DISPLAY_NAME_MAX, { error: `at most ${DISPLAY_NAME_MAX} characters` })),
});

export const SignInRequest = message("SignInRequest", {
  username: string(z.string().min(1, { error: "required" }).max(200, { error: "at most 200 characters" })),
  password: string(z.string().min(1, { error: "required" }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
});

export const RefreshRequest = message("RefreshRequest", { refreshToken: string(z.string().min(1, { error: "required" }).max(512, { error: "at most 512 characters" })) });
export const SignOutRequest = message("SignOutRequest", { refreshToken: string(z.string().min(1, { error: "required" }).max(512, { error: "at most 512 characters" })) });

export const ChangePasswordRequest = message("ChangePasswordRequest", {
  currentPassword: string(z.string().min(1, { error: "required" }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
  newPassword: newPassword(),
});
export const ChangePasswordResponse = message("ChangePasswordResponse", { auth: AuthResponse });

export const ChangeUsernameRequest = message("ChangeUsernameRequest", {
  newUsername: username(),
  password: string(z.string().min(1, { error: "required" }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
});

export const DeleteAccountRequest = message("DeleteAccountRequest", {
  password: string(z.string().min(1, { error: "required" }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
});

export const Device = message("Device", {
  id: string(),
  label: string(),
  createdAt: timestamp(),
  lastUsedAt: timestamp(),
  current: bool(),
});
export const ListDevicesResponse = message("ListDevicesResponse", { devices: list(Device) });
export const RevokeDeviceRequest = message("RevokeDeviceRequest", { deviceId: string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" })) });

export const IssueScopedTokenRequest = message("IssueScopedTokenRequest", {
  scope: string(z.string().refine((v) => v === "avatar" || v === "studio", { error: "avatar or studio" })),
});
export const ScopedToken = message("ScopedToken", { token: string(), expiresIn: int32() });

export const CreateHandoffRequest = message("CreateHandoffRequest", {
  targetOrigin: string(z.string().min(1, { error: "required" }).max(256, { error: "at most 256 characters" })),
  codeChallenge: string(z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: "43 characters of base64url (S256 of the verifier, no padding)" })),
});
export const Handoff = message("Handoff", { code: string(), expiresIn: int32() });
export const RedeemHandoffRequest = message("RedeemHandoffRequest", {
  code: string(z.string().min(1, { error: "required" }).max(128, { error: "at most 128 characters" })),
  // The verifier's length is checked by the service, after the code is spent:
  // the spec spends the code even when redeeming fails.
  codeVerifier: string(z.string().max(1024, { error: "at most 1024 characters" })),
});

export const GetMeRequest = empty("GetMeRequest");
export const GetSettingsRequest = empty("GetSettingsRequest");
export const ListDevicesRequest = empty("ListDevicesRequest");
export const SignOutEverywhereRequest = empty("SignOutEverywhereRequest");
export const StartGuestRequest = empty("StartGuestRequest");
export const DeleteAccountResponse = empty("DeleteAccountResponse");
export const RevokeDeviceResponse = empty("RevokeDeviceResponse");
export const SignOutResponse = empty("SignOutResponse");
