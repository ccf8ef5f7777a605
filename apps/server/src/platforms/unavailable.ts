import { HttpError } from '../http/errors.js';
import type { DiscordPort, VrchatPort } from './ports.js';

function unavailable(platform: string): never {
  throw new HttpError(503, `${platform} is not reachable right now. Try again later.`);
}

const vrchat = async () => unavailable('VRChat');
const discord = async () => unavailable('Discord');

/** Stands in when a platform adapter is not started (e.g. a server built without platforms). */
export const unavailableVrchat: VrchatPort = {
  searchUsers: vrchat,
  getUser: vrchat,
  getGroup: vrchat,
  getGroupMember: vrchat,
  listGroupMembers: vrchat,
  getGroupRoles: vrchat,
  addGroupMemberRole: vrchat,
  removeGroupMemberRole: vrchat,
  inviteToGroup: vrchat,
  listJoinRequests: vrchat,
  respondJoinRequest: vrchat,
  kickGroupMember: vrchat,
  getGroupAuditLogs: vrchat,
};

export const unavailableDiscord: DiscordPort = {
  botGuildIds: discord,
  getGuild: discord,
  getMember: discord,
  searchMembers: discord,
  listMembers: discord,
  addRole: discord,
  removeRole: discord,
  sendMessage: discord,
  userGuilds: discord,
};
