import { defineService } from "./define-service.js";
import * as s from "../schemas/social.js";

export const SocialService = defineService({
  typeName: "svc.platform.v1.SocialService",
  localName: "social",
  summary: "Profiles, friends, follows, groups (communities), blocking.",
  methods: {
    getProfile: { input: s.GetProfileRequest, output: s.Profile, auth: "optional", summary: "A user's profile, by id or username; signed-in callers see their relationship to the user." },
    updateProfile: { input: s.UpdateProfileRequest, output: s.Profile, auth: "account", summary: "Changes the caller's display name and bio." },
    searchUsers: { input: s.SearchUsersRequest, output: s.SearchUsersResponse, auth: "none", summary: "Users whose name matches the query." },
    sendFriendRequest: { input: s.FriendRequestRef, output: s.FriendRequestResponse, auth: "account", summary: "Asks a user to be friends." },
    acceptFriendRequest: { input: s.FriendRequestRef, output: s.FriendRequestResponse, auth: "account", summary: "Accepts a user's friend request." },
    declineFriendRequest: { input: s.FriendRequestRef, output: s.FriendRequestResponse, auth: "account", summary: "Declines a user's friend request." },
    removeFriend: { input: s.FriendRequestRef, output: s.FriendRequestResponse, auth: "account", summary: "Ends a friendship." },
    listFriends: { input: s.ListFriendsRequest, output: s.ListFriendsResponse, auth: "optional", summary: "A user's friends with their presence; empty userId lists the caller's." },
    listFriendRequests: { input: s.ListFriendRequestsRequest, output: s.ListFriendRequestsResponse, auth: "account", summary: "The caller's incoming and outgoing friend requests." },
    follow: { input: s.FollowRequest, output: s.FollowResponse, auth: "account", summary: "Follows a user." },
    unfollow: { input: s.FollowRequest, output: s.FollowResponse, auth: "account", summary: "Stops following a user." },
    createGroup: { input: s.CreateGroupRequest, output: s.Group, auth: "account", summary: "Creates a group owned by the caller." },
    joinGroup: { input: s.GroupRef, output: s.Group, auth: "account", summary: "Joins a group as a member." },
    leaveGroup: { input: s.GroupRef, output: s.Group, auth: "account", summary: "Leaves a group." },
    getGroup: { input: s.GroupRef, output: s.Group, auth: "optional", summary: "One group; signed-in callers get their rank in it." },
    listMyGroups: { input: s.ListMyGroupsRequest, output: s.ListGroupsResponse, auth: "account", summary: "The groups the caller belongs to." },
    searchGroups: { input: s.SearchGroupsRequest, output: s.ListGroupsResponse, auth: "optional", summary: "Groups whose name matches the query." },
    listGroupMembers: { input: s.GroupRef, output: s.ListGroupMembersResponse, auth: "none", summary: "A group's members with their rank and role." },
    block: { input: s.BlockRequest, output: s.BlockResponse, auth: "account", summary: "Blocks a user." },
    unblock: { input: s.BlockRequest, output: s.BlockResponse, auth: "account", summary: "Unblocks a user." },
    listBlocked: { input: s.ListBlockedRequest, output: s.SearchUsersResponse, auth: "account", summary: "The users the caller has blocked." },
  },
});
