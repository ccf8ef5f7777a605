/** The permission bits the simulator reasons about (values from Discord's docs). */
export const Permission = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewAuditLog: 1n << 7n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  UseExternalEmojis: 1n << 18n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  ChangeNickname: 1n << 26n,
  ManageNicknames: 1n << 27n,
  ManageRoles: 1n << 28n,
  UseApplicationCommands: 1n << 31n,
  ModerateMembers: 1n << 40n,
} as const;

/** Every permission Discord currently defines (what owners and administrators get). */
export const ALL_PERMISSIONS = 8_866_461_766_385_663n;

export function combine(...bits: bigint[]): bigint {
  return bits.reduce((acc, bit) => acc | bit, 0n);
}

export function has(perms: bigint, bit: bigint): boolean {
  return (perms & Permission.Administrator) === Permission.Administrator || (perms & bit) === bit;
}
