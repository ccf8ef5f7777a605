import type { GuildPermission } from './api/guilds';

export const serverTabs = [
  { value: 'discord', label: 'Discord' },
  { value: 'vrchat', label: 'VRChat' },
  { value: 'members', label: 'Members' },
  { value: 'management', label: 'Management' },
  { value: 'worlds', label: 'Worlds' },
] as const;
export type ServerTab = (typeof serverTabs)[number]['value'];

export const isServerTab = (value: string | undefined): value is ServerTab =>
  serverTabs.some((t) => t.value === value);

/** Reads `/server-settings/{serverId}/{tab}/…` (the route is a splat so deep links keep working). */
export function parseServerSettingsPath(splat: string | undefined) {
  const [serverId, tab, ...rest] = (splat ?? '').split('/').filter(Boolean);
  return { serverId: serverId ?? null, tab: isServerTab(tab) ? tab : null, rest };
}

export const can = (permissions: readonly GuildPermission[] | undefined, needed: GuildPermission) =>
  permissions?.includes(needed) ?? false;
