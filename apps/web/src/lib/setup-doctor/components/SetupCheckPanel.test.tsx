import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { neonLoungeSettings } from '../../../testing/guildFixtures';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { guildPermissions } from '../../guild-access/permissions';

const CHECK = '/api/guilds/900/setup_check';
const settings = neonLoungeSettings();
const ok = (id: string, area: 'discord' | 'vrchat') => ({
  id,
  area,
  title: id,
  ok: true,
  problem: null,
  fix: null,
});
const roleAbove = {
  id: 'discord.role.12',
  area: 'discord',
  title: 'Role Supporter',
  ok: false,
  problem: "The bot's role must be above Supporter to manage it.",
  fix: "In Server Settings → Roles, drag the bot's role (VRCLink) above Supporter.",
};
const notInGroup = {
  id: 'vrchat.botInGroup',
  area: 'vrchat',
  title: "The bot's group membership",
  ok: false,
  problem: "The bot's VRChat account is not a member of the linked group.",
  fix: "Invite the bot's VRChat account to the group (or accept its join request), then check again.",
};
const result = (checks: object[]) => ({ body: { checks, checkedAt: '2026-11-25T10:00:00.000Z' } });

function setup(extra: Answers = {}) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': {
      body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: guildPermissions }],
    },
    'GET /api/guilds/900': { body: settings },
    'GET /api/guilds/900/guest_roles': { body: { guestRoles: [] } },
    ...extra,
  });
  renderApp('/server-settings/900/discord');
  return fetchMock;
}

const panel = async () => within(await screen.findByRole('region', { name: 'Check setup' }));

describe('Check setup panel', () => {
  it("lists the tab's own problems with their fixes, not the other tab's", async () => {
    setup({ [`GET ${CHECK}`]: result([ok('discord.manageRoles', 'discord'), roleAbove, notInGroup]) });
    const view = await panel();
    expect(await view.findByText(roleAbove.problem)).toBeTruthy();
    expect(view.getByText(`Fix: ${roleAbove.fix}`)).toBeTruthy();
    expect(view.queryByText(notInGroup.problem)).toBeNull();
  });

  it('says so when nothing stops the bot, and checks again on request', async () => {
    const fetchMock = setup({
      [`GET ${CHECK}`]: result([ok('discord.manageRoles', 'discord'), ok('discord.role.12', 'discord')]),
    });
    const view = await panel();
    expect(await view.findByText('Nothing stops the bot here (2 checks passed).')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', CHECK)).toHaveLength(2));
  });

  it("shows the server's message when the check fails", async () => {
    setup({
      [`GET ${CHECK}`]: {
        status: 403,
        body: { message: 'You need the ViewGuild permission in this server.' },
      },
    });
    const view = await panel();
    expect(await view.findByText('You need the ViewGuild permission in this server.')).toBeTruthy();
  });
});
