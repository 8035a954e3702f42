/*
 * Schemas of the SocialService: profiles, friends, follows, groups, blocking.
 *
 * Caps (the spec leaves them open): ids and usernames at most 64 characters;
 * displayName at most 30 (as at sign-up); bio and group description at most
 * 1000; group name 3 to 50; search query at most 100; search limit at most 100
 * (0 = the service's default).
 */
import { z } from "zod";
import { DISPLAY_NAME_MAX } from "../domain/account-rules.js";
import { bool, int32, int64, list, message, string, timestamp } from "../wire/fields.js";
import { empty, limit, UserSummary } from "./common.js";

/** The caller's relationship to a profile's user. */
export const PROFILE_RELATIONSHIPS = ["none", "friends", "request_sent", "request_received", "self"] as const;
/** Where a friend is. */
export const FRIEND_PRESENCES = ["online", "in_game", "offline"] as const;
/** Group roles by rank: Owner = 255, Admin = 200-254, Member = 1-199. */
export const GROUP_ROLES = ["Owner", "Admin", "Member"] as const;

/** A string field that holds one of `values`, or "" (proto3's default: unset). */
const oneOf = (values: readonly string[]) =>
  string(z.string().refine((v) => v === "" || values.includes(v), { error: `one of ${values.join(", ")}` }));
const requiredId = () => string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }));
const optionalId = () => string(z.string().max(64, { error: "at most 64 characters" }));

export const Profile = message("Profile", {
  user: UserSummary,
  bio: string(),
  friendCount: int64(),
  followerCount: int64(),
  followingCount: int64(),
  relationship: oneOf(PROFILE_RELATIONSHIPS),
  following: bool(),
  createdAt: timestamp(),
});

/** `userId` takes a user id or a username; `username` a username. The service needs one of them. */
export const GetProfileRequest = message("GetProfileRequest", {
  userId: optionalId(),
  username: optionalId(),
});

/** Empty fields keep the current value. */
export const UpdateProfileRequest = message("UpdateProfileRequest", {
  displayName: string(z.string().max(DISPLAY_NAME_MAX, { error: `at most ${DISPLAY_NAME_MAX} characters` })),
  bio: string(z.string().max(1000, { error: "at most 1000 characters" })),
});

const searchRequest = (name: string) =>
  message(name, {
    query: string(z.string().max(100, { error: "at most 100 characters" })),
    limit: limit(100),
  });
export const SearchUsersRequest = searchRequest("SearchUsersRequest");
export const SearchGroupsRequest = searchRequest("SearchGroupsRequest");
export const SearchUsersResponse = message("SearchUsersResponse", { users: list(UserSummary) });

export const FriendRequestRef = message("FriendRequestRef", { userId: requiredId() });
export const FriendRequestResponse = message("FriendRequestResponse", { relationship: oneOf(PROFILE_RELATIONSHIPS) });

export const Friend = message("Friend", {
  user: UserSummary,
  presence: oneOf(FRIEND_PRESENCES),
  experienceId: string(),
});
/** Empty `userId`: the caller's friends. */
export const ListFriendsRequest = message("ListFriendsRequest", { userId: optionalId() });
export const ListFriendsResponse = message("ListFriendsResponse", { friends: list(Friend) });
export const ListFriendRequestsResponse = message("ListFriendRequestsResponse", {
  incoming: list(UserSummary),
  outgoing: list(UserSummary),
});

export const FollowRequest = message("FollowRequest", { userId: requiredId() });
export const FollowResponse = message("FollowResponse", { following: bool() });
export const BlockRequest = message("BlockRequest", { userId: requiredId() });
export const BlockResponse = message("BlockResponse", { blocked: bool() });

export const CreateGroupRequest = message("CreateGroupRequest", {
  name: string(z.string().min(3, { error: "3 to 50 characters" }).max(50, { error: "3 to 50 characters" })),
  description: string(z.string().max(1000, { error: "at most 1000 characters" })),
});
export const GroupRef = message("GroupRef", { groupId: requiredId() });

export const Group = message("Group", {
  id: string(),
  name: string(),
  description: string(),
  owner: UserSummary,
  memberCount: int64(),
  /** 0 = not a member, 255 = owner. */
  myRank: int32(z.int32().min(0, { error: "0 to 255" }).max(255, { error: "0 to 255" })),
});
export const GroupMember = message("GroupMember", {
  user: UserSummary,
  rank: int32(z.int32().min(0, { error: "0 to 255" }).max(255, { error: "0 to 255" })),
  role: oneOf(GROUP_ROLES),
  joinedAt: timestamp(),
});
export const ListGroupsResponse = message("ListGroupsResponse", { groups: list(Group) });
export const ListGroupMembersResponse = message("ListGroupMembersResponse", { members: list(GroupMember) });

export const ListFriendRequestsRequest = empty("ListFriendRequestsRequest");
export const ListMyGroupsRequest = empty("ListMyGroupsRequest");
export const ListBlockedRequest = empty("ListBlockedRequest");
