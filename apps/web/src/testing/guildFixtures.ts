/**
 * Server 900, 'Neon Lounge', as GET /api/guilds/{guildId} answers it: 40 members (7 linked), the members
 * intent on, and (unless `changes` says otherwise) no roles and nothing set.
 */
export const neonLoungeSettings = (changes: Partial<GuildSettings> = {}): GuildSettings => ({
  id: '900',
  name: 'Neon Lounge',
  icon: null,
  members: 40,
  linkedMembers: 7,
  membersIntent: true,
  roles: [],
  autoAssignRoles: { ageVerifiedRoleId: null, ageVerifiedPlus18RoleId: null, linkedRoleId: null },
  contactEmail: null,
  version: 0,
  ...changes,
});

interface GuildSettings {
  id: string;
  name: string;
  icon: string | null;
  members: number;
  linkedMembers: number;
  membersIntent: boolean;
  roles: { id: string; name: string; color: number; position: number }[];
  autoAssignRoles: Record<'ageVerifiedRoleId' | 'ageVerifiedPlus18RoleId' | 'linkedRoleId', string | null>;
  contactEmail: string | null;
  version: number;
}
