import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { neonDancers, vrchatTabAnswers } from '../testing/fixtures';

const guildRolesPath = '/api/guilds/900/guild_roles';
const groupRolesPath = '/api/groups/900/group_roles';
const group = neonDancers({ enabled: true, autoKick: false });
const guildRoles = [
  { id: '11', name: 'Supporter' },
  { id: '12', name: 'Verified' },
];
const groupRoles = [
  { id: 'grol_a', name: 'Moderator' },
  { id: 'grol_b', name: 'Linked' },
];
const everyone = {
  id: 'e0000000-0000-4000-8000-000000000000',
  discordRoleId: '900',
  groupRoleId: null,
  action: 'None',
};
const grant = {
  id: 'e0000000-0000-4000-8000-000000000001',
  discordRoleId: '12',
  groupRoleId: 'grol_b',
  action: 'GrantRolePermanent',
};
const discordToGroup = { guildRoles, groupRoles, linkedGroupRoles: [grant], everyoneRole: everyone };
const toDiscord = {
  id: 'e0000000-0000-4000-8000-000000000002',
  discordRoleId: null,
  groupRoleId: 'grol_a',
  action: 'None',
};
const groupToDiscord = { guildRoles, groupRoles, linkedGuildRoles: [toDiscord] };

/** The answers stay live: a test may change what a later GET answers (the list after a save). */
let answers: Answers = {};

function setup(extra: Answers = {}, permissions?: string[]) {
  answers = {
    ...vrchatTabAnswers(group, permissions),
    [`GET ${guildRolesPath}`]: { body: discordToGroup },
    [`GET ${groupRolesPath}`]: { body: groupToDiscord },
    ...extra,
  };
  const fetchMock = stubApi(answers);
  renderApp('/server-settings/900/vrchat');
  return fetchMock;
}

const open = async (title: string) => {
  // The first render loads the lazy pages: slow on a busy machine.
  fireEvent.click(await screen.findByRole('button', { name: `${title} setup` }, { timeout: 15_000 }));
  return within(await screen.findByRole('dialog', { name: title }));
};
const optionTexts = (select: HTMLElement) => [...(select as HTMLSelectElement).options].map((o) => o.text);
/** Saves the change the dialog previews (the preview panel's Save). */
const saveChange = async (dialog: ReturnType<typeof within>) => {
  const panel = within(await dialog.findByRole('region', { name: 'Change preview' }));
  const save = panel.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
  // Save waits for the preview's answer.
  await waitFor(() => expect(save.disabled).toBe(false));
  fireEvent.click(save);
};
const putBodies = async (fetchMock: ReturnType<typeof stubApi>, path: string) =>
  Promise.all(callsTo(fetchMock, 'PUT', path).map((r) => r.json()));

describe('Discord to Group Roles', () => {
  it('lists @everyone first, offering only None and Membership, then the entries', async () => {
    setup();
    const dialog = await open('Discord to Group Roles');
    expect(dialog.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Discord Role',
      'Action',
      'Group Role',
      'Actions',
    ]);
    const rows = await dialog.findAllByRole('row');
    expect(rows[1].getAttribute('aria-label')).toBe('@everyone');
    const first = within(rows[1]);
    expect(first.getByText('@everyone')).toBeTruthy();
    expect(optionTexts(first.getByLabelText('Action of @everyone'))).toEqual(['None', 'Membership']);
    expect(first.queryByLabelText('Group Role of @everyone')).toBeNull();
    expect(first.queryByRole('button', { name: /Remove/ })).toBeNull();

    const second = within(dialog.getByRole('row', { name: 'Discord to group mapping 1' }));
    const discordRole = second.getByLabelText(
      'Discord Role of Discord to group mapping 1',
    ) as HTMLSelectElement;
    expect(discordRole.value).toBe('12');
    expect(optionTexts(discordRole)).toEqual(['Select...', 'Supporter', 'Verified']);
    expect(optionTexts(second.getByLabelText('Action of Discord to group mapping 1'))).toHaveLength(6);
    const groupRole = second.getByLabelText('Group Role of Discord to group mapping 1') as HTMLSelectElement;
    expect(groupRole.value).toBe('grol_b');
  });

  it('saves a change at once, hides the group role for actions without one and clears it', async () => {
    const fetchMock = setup({
      [`PUT ${guildRolesPath}`]: { body: { ...grant, action: 'Membership', groupRoleId: null } },
    });
    const dialog = await open('Discord to Group Roles');
    const row = within(await dialog.findByRole('row', { name: 'Discord to group mapping 1' }));
    const saved = { ...grant, action: 'Membership', groupRoleId: null };
    answers[`GET ${guildRolesPath}`] = { body: { ...discordToGroup, linkedGroupRoles: [saved] } };
    fireEvent.change(row.getByLabelText('Action of Discord to group mapping 1'), {
      target: { value: 'Membership' },
    });
    await waitFor(() => expect(row.queryByLabelText('Group Role of Discord to group mapping 1')).toBeNull());
    expect(callsTo(fetchMock, 'PUT', guildRolesPath)).toHaveLength(0);
    await saveChange(dialog);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', guildRolesPath)).toHaveLength(1));
    expect(await putBodies(fetchMock, guildRolesPath)).toEqual([
      { ...grant, action: 'Membership', groupRoleId: null },
    ]);
  });

  it('lets @everyone switch to Membership', async () => {
    const fetchMock = setup({ [`PUT ${guildRolesPath}`]: { body: { ...everyone, action: 'Membership' } } });
    const dialog = await open('Discord to Group Roles');
    fireEvent.change(await dialog.findByLabelText('Action of @everyone'), {
      target: { value: 'Membership' },
    });
    await saveChange(dialog);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', guildRolesPath)).toHaveLength(1));
    expect(await putBodies(fetchMock, guildRolesPath)).toEqual([{ ...everyone, action: 'Membership' }]);
  });

  it("previews a mapping's deletion with what the bot would do, and Cancel keeps it", async () => {
    const fetchMock = setup({
      'POST /api/guilds/900/sync/preview': {
        body: {
          effects: [
            {
              kind: 'remove',
              roleName: null,
              sentence: '3 members will be removed from the group.',
              given: [],
              taken: ['Aki', 'Bo', 'Cy'],
            },
          ],
          total: 3,
          warnings: [],
          wouldHold: 3,
          complete: true,
        },
      },
    });
    const dialog = await open('Discord to Group Roles');
    fireEvent.click(await dialog.findByRole('button', { name: 'Remove Discord to group mapping 1' }));
    const panel = within(await dialog.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Delete Discord to group mapping 1')).toBeTruthy();
    expect(await panel.findByText('3 members will be removed from the group.')).toBeTruthy();
    expect(panel.getByText('The sync would hold back 3 removals for review.')).toBeTruthy();
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')[0].json()).toEqual({
      kind: 'discordToGroup',
      id: grant.id,
      mapping: null,
    });
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog.queryByRole('region', { name: 'Change preview' })).toBeNull());
    expect(callsTo(fetchMock, 'DELETE', `${guildRolesPath}/${grant.id}`)).toHaveLength(0);
  });

  it('adds an entry and reads the list again', async () => {
    const fetchMock = setup({ [`POST ${guildRolesPath}`]: { body: { id: toDiscord.id } } });
    const dialog = await open('Discord to Group Roles');
    await dialog.findByRole('row', { name: '@everyone' });
    fireEvent.click(dialog.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', guildRolesPath)).toHaveLength(1));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', guildRolesPath)).toHaveLength(2));
  });

  it('reports an update the server refused with its sentence', async () => {
    setup({
      [`PUT ${guildRolesPath}`]: {
        status: 400,
        body: { message: 'Linked is given by VRChat through a purchase and cannot be mapped.' },
      },
    });
    const dialog = await open('Discord to Group Roles');
    fireEvent.change(await dialog.findByLabelText('Group Role of Discord to group mapping 1'), {
      target: { value: 'grol_a' },
    });
    await saveChange(dialog);
    await waitFor(() => expect(toastTexts().some((t) => t?.includes('cannot be mapped'))).toBe(true));
  });

  it("sends the version the row was read at; after another manager's change (409) says so and shows theirs", async () => {
    const stale =
      'Another manager changed this mapping since you opened it. The table now shows their version; check it and save again.';
    const fetchMock = setup({
      [`GET ${guildRolesPath}`]: {
        body: { ...discordToGroup, linkedGroupRoles: [{ ...grant, version: 3 }] },
      },
      [`PUT ${guildRolesPath}`]: { status: 409, body: { message: stale } },
    });
    const dialog = await open('Discord to Group Roles');
    const row = within(await dialog.findByRole('row', { name: 'Discord to group mapping 1' }));
    // Meanwhile another manager made the row a Membership mapping.
    answers[`GET ${guildRolesPath}`] = {
      body: {
        ...discordToGroup,
        linkedGroupRoles: [{ ...grant, action: 'Membership', groupRoleId: null, version: 4 }],
      },
    };
    fireEvent.change(row.getByLabelText('Group Role of Discord to group mapping 1'), {
      target: { value: 'grol_a' },
    });
    await saveChange(dialog);
    await waitFor(() => expect(toastTexts().some((t) => t?.includes(stale))).toBe(true));
    expect((await putBodies(fetchMock, guildRolesPath))[0]).toMatchObject({
      groupRoleId: 'grol_a',
      version: 3,
    });
    // Their version is what the table now shows.
    await waitFor(() =>
      expect((row.getByLabelText('Action of Discord to group mapping 1') as HTMLSelectElement).value).toBe(
        'Membership',
      ),
    );
  });

  it.each([404, 400])('says nothing when a delete answers %i', async (status) => {
    const path = `${guildRolesPath}/${grant.id}`;
    const fetchMock = setup({ [`DELETE ${path}`]: { status, body: { message: 'Role mapping not found.' } } });
    const dialog = await open('Discord to Group Roles');
    fireEvent.click(await dialog.findByRole('button', { name: 'Remove Discord to group mapping 1' }));
    await saveChange(dialog);
    await waitFor(() => expect(callsTo(fetchMock, 'DELETE', path)).toHaveLength(1));
    // The list is read again after the answer; the failure handler has run by then.
    await waitFor(() => expect(callsTo(fetchMock, 'GET', guildRolesPath)).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(dialog.queryByText('Failed to delete group role')).toBeNull();
  });

  it("alerts 'Failed to delete group role' when the server fails", async () => {
    setup({ [`DELETE ${guildRolesPath}/${grant.id}`]: { status: 500, body: { message: 'boom' } } });
    const dialog = await open('Discord to Group Roles');
    fireEvent.click(await dialog.findByRole('button', { name: 'Remove Discord to group mapping 1' }));
    await saveChange(dialog);
    expect(await dialog.findByText('Failed to delete group role')).toBeTruthy();
  });
});

describe('Group to Discord Roles', () => {
  it('shows the Discord role only for the grant actions, and saves each change', async () => {
    const fetchMock = setup({
      [`PUT ${groupRolesPath}`]: { body: { ...toDiscord, action: 'GrantRoleTemporary' } },
    });
    const dialog = await open('Group to Discord Roles');
    expect(dialog.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Group Role',
      'Action',
      'Discord Role',
      'Actions',
    ]);
    const name = 'Group to Discord mapping 1';
    const row = within(await dialog.findByRole('row', { name }));
    expect((row.getByLabelText(`Group Role of ${name}`) as HTMLSelectElement).value).toBe('grol_a');
    expect(optionTexts(row.getByLabelText(`Action of ${name}`))).toEqual([
      'None',
      'Grant Role (Permanent)',
      'Grant Role (Temporary)',
    ]);
    expect(row.queryByLabelText(`Discord Role of ${name}`)).toBeNull();
    answers[`GET ${groupRolesPath}`] = {
      body: { ...groupToDiscord, linkedGuildRoles: [{ ...toDiscord, action: 'GrantRoleTemporary' }] },
    };
    fireEvent.change(row.getByLabelText(`Action of ${name}`), { target: { value: 'GrantRoleTemporary' } });
    expect(await row.findByLabelText(`Discord Role of ${name}`)).toBeTruthy();
    await saveChange(dialog);
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', groupRolesPath)).toHaveLength(1));
    expect(await putBodies(fetchMock, groupRolesPath)).toEqual([
      { ...toDiscord, action: 'GrantRoleTemporary' },
    ]);
  });

  it("offers a Discord role above the bot's highest disabled, with the reason", async () => {
    const given = [
      { id: '10', name: 'Owner', unavailable: 'aboveBot' },
      ...guildRoles.map((r) => ({ ...r, unavailable: null })),
    ];
    const granting = { ...toDiscord, action: 'GrantRolePermanent' };
    setup({
      [`GET ${groupRolesPath}`]: {
        body: { ...groupToDiscord, guildRoles: given, linkedGuildRoles: [granting] },
      },
    });
    const dialog = await open('Group to Discord Roles');
    const name = 'Group to Discord mapping 1';
    const select = (await dialog.findByLabelText(`Discord Role of ${name}`)) as HTMLSelectElement;
    const options = [...select.options];
    expect(options.map((o) => [o.text, o.disabled])).toEqual([
      ['Select...', false],
      ["Owner (above the bot's highest role)", true],
      ['Supporter', false],
      ['Verified', false],
    ]);
  });

  it("says 'No options' when there is no role to choose", async () => {
    setup({
      [`GET ${groupRolesPath}`]: {
        body: { guildRoles: [], groupRoles: [], linkedGuildRoles: [{ ...toDiscord, groupRoleId: null }] },
      },
    });
    const dialog = await open('Group to Discord Roles');
    const select = await dialog.findByLabelText('Group Role of Group to Discord mapping 1');
    await waitFor(() => expect(optionTexts(select)).toEqual(['No options']));
  });

  it("alerts 'Failed to delete group role' when the server fails", async () => {
    const path = `${groupRolesPath}/${toDiscord.id}`;
    setup({ [`DELETE ${path}`]: { status: 503, body: { message: 'down' } } });
    const dialog = await open('Group to Discord Roles');
    fireEvent.click(await dialog.findByRole('button', { name: 'Remove Group to Discord mapping 1' }));
    await saveChange(dialog);
    expect(await dialog.findByText('Failed to delete group role')).toBeTruthy();
  });

  it('is not offered without Admin', async () => {
    setup({}, ['ViewGuild']);
    await screen.findByText('Neon Dancers');
    const button = (await screen.findByRole('button', {
      name: 'Group to Discord Roles setup',
    })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });
});
