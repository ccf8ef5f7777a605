import { DiscordError } from './discord/errors.js';
import type { DiscordPort, VrchatPort } from './ports.js';
import { VrchatError } from './vrchat/errors.js';

const vrchat = async () => {
  throw new VrchatError(503, 'The VRChat adapter is not started.');
};
const discord = async () => {
  throw new DiscordError(503, 'The Discord adapter is not started.');
};

/** Stands in when a platform adapter is not started (e.g. a server built without platforms). */
export const unavailableVrchat: VrchatPort = {
  accounts: () => [],
  forAccount: () => unavailableVrchat,
  accountOf: vrchat,
  accountProfile: vrchat,
  accountUserIds: async () => [],
  requestsPerSecond: () => 1,
  currentUserId: vrchat,
  searchUsers: vrchat,
  getUser: vrchat,
  getGroup: vrchat,
  getGroupMember: vrchat,
  listGroupMembers: vrchat,
  listGroupInvites: vrchat,
  getGroupRoles: vrchat,
  addGroupMemberRole: vrchat,
  removeGroupMemberRole: vrchat,
  inviteToGroup: vrchat,
  cancelGroupInvite: vrchat,
  joinGroup: vrchat,
  listJoinRequests: vrchat,
  respondJoinRequest: vrchat,
  kickGroupMember: vrchat,
  getGroupAuditLogs: vrchat,
};

export const unavailableDiscord: DiscordPort = {
  botGuildIds: discord,
  getGuild: discord,
  getMember: discord,
  botMember: discord,
  searchMembers: discord,
  listMembers: discord,
  addRole: discord,
  removeRole: discord,
  sendMessage: discord,
  listTextChannels: discord,
  postEmbed: discord,
  userGuilds: discord,
};
