/** The VRChat tab tests' linked group, 'Neon Dancers'. */
export const GROUP_ID = 'grp_3f2b6c1e-0000-4000-8000-00000000abcd';

/** The linked group as GET /api/groups/{guildId} answers it, with the Groups feature and Auto Remove as given. */
export const neonDancers = (settings: { enabled: boolean; autoKick: boolean }) => ({
  id: GROUP_ID,
  name: 'Neon Dancers',
  iconUrl: null,
  memberCount: 42,
  onlineMemberCount: 5,
  ...settings,
});
