import { describe, expect, it } from 'vitest';
import type { DiscordChannelInfo, DiscordGuildInfo } from '../../../platforms/ports.js';
import { channelPostProblem } from './channel-access.js';

const VIEW = 1n << 10n;
const SEND = 1n << 11n;
const EMBED = 1n << 14n;
const role = (id: string, position: number, permissions: bigint) => ({
  id,
  name: id,
  position,
  color: 0,
  permissions: String(permissions),
  managed: false,
});
const guild: DiscordGuildInfo = {
  id: 'g',
  name: 'Guild',
  iconUrl: null,
  ownerId: 'owner',
  roles: [role('admin', 3, 1n << 3n), role('bot', 2, 0n), role('g', 0, VIEW | SEND | EMBED)],
};
const bot = { userId: 'me', roleIds: ['bot'] };
const channel = (overwrites: DiscordChannelInfo['permissionOverwrites']): DiscordChannelInfo => ({
  id: 'c',
  name: 'log',
  position: 0,
  parentId: null,
  permissionOverwrites: overwrites,
});
const ow = (id: string, type: 'role' | 'member', allow: bigint, deny: bigint) => ({
  id,
  type,
  allow: String(allow),
  deny: String(deny),
});

describe('channelPostProblem', () => {
  it('lets the bot post where @everyone may', () => {
    expect(channelPostProblem(guild, bot, channel([]))).toBeNull();
  });

  it("lets a role overwrite open what @everyone's closes, and a member overwrite close it again", () => {
    const hidden = ow('g', 'role', 0n, VIEW);
    expect(channelPostProblem(guild, bot, channel([hidden]))).toBe('The bot lacks View Channel in #log.');
    expect(channelPostProblem(guild, bot, channel([hidden, ow('bot', 'role', VIEW, 0n)]))).toBeNull();
    expect(
      channelPostProblem(
        guild,
        bot,
        channel([hidden, ow('bot', 'role', VIEW, 0n), ow('me', 'member', 0n, EMBED)]),
      ),
    ).toBe('The bot lacks Embed Links in #log.');
  });

  it('ignores overwrites for an Administrator bot', () => {
    const admin = { userId: 'me', roleIds: ['admin'] };
    expect(channelPostProblem(guild, admin, channel([ow('g', 'role', 0n, VIEW | SEND)]))).toBeNull();
  });
});
