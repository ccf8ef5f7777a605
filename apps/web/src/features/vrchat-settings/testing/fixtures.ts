import { guildPermissions } from '../../../lib/guild-access/permissions';
import { type Answers, demoConfig, loggedInAs } from '../../../testing/renderApp';

/** The VRChat tab tests' linked group, 'Neon Dancers'. */
export const GROUP_ID = 'grp_3f2b6c1e-0000-4000-8000-00000000abcd';

/** The linked group as GET /api/groups/{guildId} answers it, with the Groups feature and Auto Remove as given. */
export const neonDancers = (settings: { enabled: boolean; autoKick: boolean }) => ({
  id: GROUP_ID,
  name: 'Neon Dancers',
  iconUrl: null,
  memberCount: 42,
  onlineMemberCount: 5,
  botAccount: BOT_ACCOUNT,
  ...settings,
});

/** The bot account serving the fixture group (the second of the bot's VRChat accounts). */
export const BOT_ACCOUNT = {
  userId: 'usr_0b0b0b0b-0000-4000-8000-000000000002',
  displayName: 'VRCLink Bot 2',
};

/**
 * What the VRChat tab of server 900 ('Neon Lounge') reads first: a signed-in user holding `permissions` there
 * (every one unless given) and `group` as the linked group.
 */
export const vrchatTabAnswers = (
  group: unknown,
  permissions: readonly string[] = guildPermissions,
): Answers => ({
  ...loggedInAs('User'),
  'GET /api/config': { body: demoConfig },
  'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions }] },
  'GET /api/groups/900': { body: group },
});
