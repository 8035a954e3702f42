import { defineService } from "./define-service.js";
import * as s from "../schemas/identity.js";

export const IdentityService = defineService({
  typeName: "svc.platform.v1.IdentityService",
  localName: "identity",
  summary: "Accounts, sign-in, guests, devices, account settings, scoped tokens, cross-host sign-on handoff.",
  methods: {
    signUp: { input: s.SignUpRequest, output: s.AuthResponse, auth: "none", summary: "Creates an account and signs in." },
    signIn: { input: s.SignInRequest, output: s.AuthResponse, auth: "none", summary: "Signs in with username and password." },
    refresh: { input: s.RefreshRequest, output: s.AuthResponse, auth: "none", summary: "Exchanges the refresh token for new tokens; the old refresh token stops working." },
    signOut: { input: s.SignOutRequest, output: s.SignOutResponse, auth: "none", summary: "Ends the device session of the refresh token." },
    getMe: { input: s.GetMeRequest, output: s.Me, auth: "guest", scopes: ["studio"], summary: "The signed-in account or guest." },
    startGuest: { input: s.StartGuestRequest, output: s.AuthResponse, auth: "none", summary: "Guest session with child-safe limits (no chat, no purchases); upgradable." },
    upgradeGuest: { input: s.SignUpRequest, output: s.AuthResponse, auth: "guest", summary: "Turns the signed-in guest into a full account, keeping its id and progress." },
    changePassword: { input: s.ChangePasswordRequest, output: s.ChangePasswordResponse, auth: "account", summary: "Changes the password; other devices are signed out, this one gets fresh tokens." },
    changeUsername: { input: s.ChangeUsernameRequest, output: s.Me, auth: "account", summary: "Changes the username (unique ignoring case)." },
    listDevices: { input: s.ListDevicesRequest, output: s.ListDevicesResponse, auth: "account", summary: "Devices are refresh-token sessions." },
    revokeDevice: { input: s.RevokeDeviceRequest, output: s.RevokeDeviceResponse, auth: "account", summary: "Signs one device out." },
    signOutEverywhere: { input: s.SignOutEverywhereRequest, output: s.SignOutResponse, auth: "account", summary: "Signs every device out, this one included." },
    getSettings: { input: s.GetSettingsRequest, output: s.AccountSettings, auth: "account", summary: "The account's settings." },
    updateSettings: { input: s.AccountSettings, output: s.AccountSettings, auth: "account", summary: "Changes the settings given; empty strings and absent booleans keep the current value." },
    deleteAccount: { input: s.DeleteAccountRequest, output: s.DeleteAccountResponse, auth: "account", summary: "Deactivates the account at once; data deletion follows the retention policy." },
    issueScopedToken: { input: s.IssueScopedTokenRequest, output: s.ScopedToken, auth: "account", summary: "Short-lived token for an embedded editor, limited to its scope's calls." },
    createHandoff: { input: s.CreateHandoffRequest, output: s.Handoff, auth: "account", summary: "One-time code for single sign-on to another web origin, bound to a PKCE S256 challenge; 60 seconds, single use." },
    redeemHandoff: { input: s.RedeemHandoffRequest, output: s.AuthResponse, auth: "none", summary: "Spends a handoff code for a new device session; must come from the code's origin with the challenge's verifier." },
  },
});
