import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { guildPermissions } from '../../../lib/guild-access/permissions';
import { neonLoungeSettings } from '../../../testing/guildFixtures';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';

const all: string[] = [...guildPermissions];
const roles = [
  { id: '11', name: 'Admin', color: 0, position: 5 },
  { id: '12', name: 'Supporter', color: 0, position: 3 },
  { id: '13', name: 'Guest', color: 0, position: 1 },
];
const settings = neonLoungeSettings({
  roles,
  autoAssignRoles: { ageVerifiedRoleId: null, ageVerifiedPlus18RoleId: '12', linkedRoleId: null },
});
const entry = {
  id: '1c2b3d4e-0000-4000-8000-000000000001',
  primaryRoleId: '12',
  guestRoleId: '13',
  count: 2,
};

const previewAnswer: Answers = {
  'POST /api/guilds/900/sync/preview': {
    body: {
      effects: [
        {
          kind: 'discordRole',
          roleName: 'Admin',
          sentence: 'Admin will be taken from 2 members and given to 1.',
          given: ['Ann'],
          taken: ['Bea', 'Cid'],
        },
      ],
      total: 3,
      warnings: [],
      wouldHold: 0,
      complete: true,
    },
  },
};

/** The preview of a change that affects nobody (it then saves at once). */
const noEffect: Answers = {
  'POST /api/guilds/900/sync/preview': {
    body: { effects: [], total: 0, warnings: [], wouldHold: 0, complete: true },
  },
};

const STALE =
  'Another manager changed these settings since you opened them. The page now shows their version; check the preview and save again.';

const combobox = (name: string) => screen.getByRole('combobox', { name }) as HTMLInputElement;
/** The open list of one select (each select keeps its own list in the page). */
const listOf = async (label: string) => {
  fireEvent.click(combobox(label));
  const id = await waitFor(() => combobox(label).getAttribute('aria-controls') ?? expect.fail('closed'));
  return within(document.getElementById(id) as HTMLElement);
};
const choose = async (label: string, option: string) => {
  const list = await listOf(label);
  fireEvent.click(list.getByRole('option', { name: option, hidden: true }));
};
const chooseAndSave = async (label: string, option: string) => {
  await screen.findByText('Discord Settings');
  await choose(label, option);
  const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
  fireEvent.click(await enabledSave(panel));
};
/** The panel's Save once the preview has arrived (it is disabled until then). */
async function enabledSave(panel: ReturnType<typeof within>) {
  const save = (await panel.findByRole('button', { name: 'Save' })) as HTMLButtonElement;
  await waitFor(() => expect(save.disabled).toBe(false));
  return save;
}

function setup(extra: Answers = {}, permissions = all) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions }] },
    'GET /api/guilds/900': { body: settings },
    'GET /api/guilds/900/guest_roles': { body: { guestRoles: [entry] } },
    ...extra,
  });
  renderApp('/server-settings/900/discord');
  return fetchMock;
}

describe('Discord tab', () => {
  it('shows the header, the counts and the role settings; @everyone is not a choice', async () => {
    setup();
    expect(await screen.findByText('Discord Settings')).toBeTruthy();
    expect(screen.getByText('40')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
    expect(combobox('18+ Verified Role').value).toBe('Supporter');
    expect(combobox('Linked Users Role').value).toBe('None Selected');
    const options = (await listOf('Linked Users Role')).getAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['None Selected', 'Admin', 'Supporter', 'Guest']);
    // The rule the label states: the Linked Users Role follows the link, so it leaves unlinked members.
    expect(
      screen.getByText(/Given to members who linked a VRChat account; removed from all unlinked\./),
    ).toBeTruthy();
  });

  it('offers the roles the bot cannot give disabled, with the reason, in the auto roles and the guest role', async () => {
    const marked = [
      { id: '10', name: 'Owner', color: 0, position: 9, unavailable: 'aboveBot' },
      { id: '14', name: 'Server Booster', color: 0, position: 4, unavailable: 'managed' },
      ...roles.map((r) => ({ ...r, unavailable: null })),
    ];
    setup({ 'GET /api/guilds/900': { body: { ...settings, roles: marked } } });
    await screen.findByText('Discord Settings');
    for (const label of ['Linked Users Role', '18+ Verified Role']) {
      const list = await listOf(label);
      const owner = list.getByRole('option', { name: "Owner (above the bot's highest role)", hidden: true });
      const booster = list.getByRole('option', {
        name: 'Server Booster (managed by an integration)',
        hidden: true,
      });
      expect(
        owner.getAttribute('aria-disabled') ?? owner.getAttribute('data-combobox-disabled'),
      ).toBeTruthy();
      expect(
        booster.getAttribute('aria-disabled') ?? booster.getAttribute('data-combobox-disabled'),
      ).toBeTruthy();
      expect(
        list.getByRole('option', { name: 'Guest', hidden: true }).getAttribute('aria-disabled'),
      ).not.toBe('true');
      fireEvent.keyDown(combobox(label), { key: 'Escape' });
    }
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const row = within(await screen.findByRole('row', { name: 'Guest role 1' }));
    const option = (select: string, name: string) =>
      [...(row.getByLabelText(select) as HTMLSelectElement).options].find((o) => o.textContent === name);
    // The guest role is one the bot gives; the main role is one hosts hold (an integration's role may be one).
    expect(option('Guest Role', "Owner (above the bot's highest role)")?.disabled).toBe(true);
    expect(option('Guest Role', 'Server Booster (managed by an integration)')?.disabled).toBe(true);
    expect(option('Guest Role', 'Guest')?.disabled).toBe(false);
    expect(option('Main Role', 'Server Booster')?.disabled).toBe(false);
  });

  it('explains how to switch on the Server Members intent only when the bot lacks it', async () => {
    setup({ 'GET /api/guilds/900': { body: { ...settings, membersIntent: false } } });
    expect(await screen.findByText('Server Members Intent is off')).toBeTruthy();
    expect(screen.getByText(/Bot → Privileged Gateway Intents/)).toBeTruthy();
  });

  it('says nothing about the intent when the bot has it', async () => {
    setup();
    expect(await screen.findByText('Linked Members')).toBeTruthy();
    expect(screen.queryByText('Server Members Intent is off')).toBeNull();
  });

  it('previews a chosen role, names the members behind a click, and saves only on Save', async () => {
    const fetchMock = setup({ 'POST /api/guilds/900': { body: settings }, ...previewAnswer });
    await screen.findByText('Discord Settings');
    await choose('Linked Users Role', 'Admin');
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Linked Users Role: none → Admin')).toBeTruthy();
    expect(await panel.findByText('Admin will be taken from 2 members and given to 1.')).toBeTruthy();
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')[0].json()).toEqual({
      kind: 'autoRoles',
      autoAssignRoles: { linkedRoleId: '11' },
    });
    expect(panel.queryByText('Bea')).toBeNull();
    fireEvent.click(await panel.findByRole('button', { name: 'Show members' }));
    expect(panel.getByRole('list', { name: 'Given to' }).textContent).toBe('Ann');
    expect(panel.getByRole('list', { name: 'Taken from' }).textContent).toBe('BeaCid');
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(0);
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(1));
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900')[0].json()).toEqual({
      autoAssignRoles: { linkedRoleId: '11' },
      version: 0,
    });
    await waitFor(() => expect(toastTexts()).toContain('Auto assign roles updated successfully.'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull());
  });

  it('clears a role through the preview too, and says when nobody is affected', async () => {
    const fetchMock = setup({
      'POST /api/guilds/900': { body: settings },
      'POST /api/guilds/900/sync/preview': {
        body: { effects: [], total: 0, warnings: [], wouldHold: 0, complete: true },
      },
    });
    await screen.findByText('Discord Settings');
    await choose('18+ Verified Role', 'None Selected');
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(await panel.findByText('No member is affected.')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(1));
    // The old role is taken back from its holders unless the manager keeps it: said with the save.
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900')[0].json()).toEqual({
      autoAssignRoles: { ageVerifiedPlus18RoleId: null },
      version: 0,
      oldRoles: 'take',
    });
  });

  it('offers to keep the replaced role on its holders, previews that choice and saves it', async () => {
    const fetchMock = setup({
      'POST /api/guilds/900': { body: settings },
      'POST /api/guilds/900/sync/preview': {
        body: {
          effects: [
            {
              kind: 'discordRole',
              roleName: 'Supporter',
              sentence: 'Supporter will be taken from 4 members.',
              given: [],
              taken: ['Ann', 'Bea', 'Cid', 'Dee'],
            },
          ],
          total: 4,
          warnings: [],
          wouldHold: 0,
          complete: true,
          oldRoles: [{ roleId: '12', roleName: 'Supporter', members: 4 }],
        },
      },
    });
    await screen.findByText('Discord Settings');
    await choose('18+ Verified Role', 'Guest');
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(await panel.findByText('Supporter will be taken from 4 members.')).toBeTruthy();
    const keep = panel.getByRole('checkbox', {
      name: 'Keep Supporter on the members who have it (the bot no longer manages it)',
    }) as HTMLInputElement;
    expect(keep.checked).toBe(false);
    fireEvent.click(keep);
    // The choice is previewed: the server is asked again with it.
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')).toHaveLength(2));
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')[1].json()).toEqual({
      kind: 'autoRoles',
      autoAssignRoles: { ageVerifiedPlus18RoleId: '13' },
      oldRoles: 'keep',
    });
    fireEvent.click(await panel.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(1));
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900')[0].json()).toEqual({
      autoAssignRoles: { ageVerifiedPlus18RoleId: '13' },
      version: 0,
      oldRoles: 'keep',
    });
  });

  it('moves through the roles with the arrow keys without choosing; Enter chooses; Cancel keeps the old role', async () => {
    const fetchMock = setup(previewAnswer);
    await screen.findByText('Discord Settings');
    const linked = combobox('Linked Users Role');
    linked.focus();
    fireEvent.keyDown(linked, { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(linked, { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(linked, { key: 'ArrowDown', code: 'ArrowDown' });
    expect(linked.value).toBe('None Selected');
    expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')).toHaveLength(0);
    fireEvent.keyDown(linked, { key: 'Enter', code: 'Enter' });
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(linked.value).not.toBe('None Selected');
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull();
    expect(linked.value).toBe('None Selected');
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(0);
  });

  it('keeps Save disabled until the preview of the chosen role has arrived', async () => {
    let answerPreview = () => {};
    const arrived = new Promise<void>((resolve) => {
      answerPreview = resolve;
    });
    const fetchMock = stubApi({
      ...loggedInAs('User'),
      'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: all }] },
      'GET /api/guilds/900': { body: settings },
      'POST /api/guilds/900': { body: settings },
      ...previewAnswer,
    });
    // The preview's answer waits until the test lets it through.
    vi.stubGlobal('fetch', async (request: Request) => {
      if (new URL(request.url).pathname.endsWith('/sync/preview')) await arrived;
      return fetchMock(request);
    });
    renderApp('/server-settings/900/discord');
    await screen.findByText('Discord Settings');
    await choose('Linked Users Role', 'Admin');
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Working out what this change would do..')).toBeTruthy();
    const save = panel.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.click(save);
    answerPreview();
    expect(await panel.findByText('Admin will be taken from 2 members and given to 1.')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(0);
    await waitFor(() => expect(save.disabled).toBe(false));
  });

  it("after another manager's save (409), shows their settings and a fresh preview; Save then carries the new version", async () => {
    const answers: Answers = {
      ...loggedInAs('User'),
      'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: all }] },
      'GET /api/guilds/900': { body: { ...settings, version: 3 } },
      'POST /api/guilds/900': { status: 409, body: { message: STALE } },
      ...previewAnswer,
    };
    const fetchMock = stubApi(answers);
    renderApp('/server-settings/900/discord');
    await screen.findByText('Discord Settings');
    await choose('Linked Users Role', 'Admin');
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(await panel.findByText('Admin will be taken from 2 members and given to 1.')).toBeTruthy();
    // Meanwhile another manager set the Linked Users Role to Supporter.
    const theirs = {
      ...settings,
      version: 4,
      autoAssignRoles: { ...settings.autoAssignRoles, linkedRoleId: '12' },
    };
    answers['GET /api/guilds/900'] = { body: theirs };
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    expect(await panel.findByText(STALE)).toBeTruthy();
    // Their version is shown, and this choice is previewed again against it.
    expect(await panel.findByText('Linked Users Role: Supporter → Admin')).toBeTruthy();
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')).toHaveLength(2));
    expect(toastTexts()).not.toContain('Auto assign roles updated successfully.');
    answers['POST /api/guilds/900'] = {
      body: { ...theirs, version: 5, autoAssignRoles: { ...theirs.autoAssignRoles, linkedRoleId: '11' } },
    };
    const save = panel.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(callsTo(fetchMock, 'POST', '/api/guilds/900')).toHaveLength(2));
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900')[1].json()).toEqual({
      autoAssignRoles: { linkedRoleId: '11' },
      version: 4,
    });
    await waitFor(() => expect(toastTexts()).toContain('Auto assign roles updated successfully.'));
  });

  it("says so when saving fails, with the server's reason", async () => {
    setup({
      ...previewAnswer,
      'POST /api/guilds/900': {
        status: 400,
        body: { message: 'The bot cannot give Admin: the role is above its own.' },
      },
    });
    await chooseAndSave('Linked Users Role', 'Admin');
    await waitFor(() =>
      expect(toastTexts()).toContain(
        'Failed to update auto assign roles. The bot cannot give Admin: the role is above its own.',
      ),
    );
  });

  it('says only the spec text when the server gives no reason', async () => {
    setup({ 'POST /api/guilds/900': { status: 502, body: {} }, ...previewAnswer });
    await chooseAndSave('Linked Users Role', 'Admin');
    await waitFor(() => expect(toastTexts()).toContain('Failed to update auto assign roles.'));
  });

  it("shows the sync's warnings under the settings, as the server words them", async () => {
    setup({
      'GET /api/guilds/900/sync': {
        body: {
          groupEnabled: true,
          lastRunAt: null,
          lastResult: null,
          held: null,
          warnings: [
            { kind: 'roleAboveBot', message: 'The bot cannot manage Admin: move its role higher.' },
            { kind: 'missingPermission', message: 'The bot lacks Manage Roles.' },
          ],
        },
      },
    });
    const alert = await screen.findByText('Sync warnings');
    expect(screen.getByText('The bot cannot manage Admin: move its role higher.')).toBeTruthy();
    expect(screen.getByText('The bot lacks Manage Roles.')).toBeTruthy();
    expect(alert).toBeTruthy();
  });

  it('shows a Discord role the breaker held back, naming the role, and applies it after confirmation', async () => {
    const held = {
      count: 7,
      heldAt: new Date().toISOString(),
      actions: ['Gil', 'Hal', 'Ivy', 'Jo', 'Kai', 'Lux', 'Mo'].map((n) => ({
        kind: 'removeDiscordRole',
        targetName: n,
        discordUserId: null,
        vrcUserId: null,
        roleName: 'Supporter',
        reason: 'LinkedRole',
      })),
    };
    const fetchMock = setup({
      'GET /api/guilds/900/sync': {
        body: { groupEnabled: false, lastRunAt: null, lastResult: null, held, warnings: [] },
      },
      'POST /api/guilds/900/sync/held': { body: { count: 7 } },
    });
    expect(await screen.findByText('The last sync held back 7 removals')).toBeTruthy();
    expect(
      screen.getByText(
        'Gil (Supporter), Hal (Supporter), Ivy (Supporter), Jo (Supporter), Kai (Supporter) and 2 more',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Apply Removals' }));
    const dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Take Supporter from 7 members in Discord?')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Removals' }));
    await waitFor(() => expect(toastTexts()).toContain('7 held removals applied.'));
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/held')[0].json()).toEqual({
      decision: 'apply',
    });
  });

  it('lists every held removal on the Discord tab too, a page at a time', async () => {
    const actions = Array.from({ length: 50 }, (_, i) => ({
      kind: 'removeDiscordRole',
      targetName: `Member ${i}`,
      discordUserId: null,
      vrcUserId: null,
      roleName: 'Supporter',
      reason: 'LinkedRole',
    }));
    setup({
      'GET /api/guilds/900/sync': {
        body: {
          groupEnabled: false,
          lastRunAt: null,
          lastResult: null,
          held: { count: 206, heldAt: new Date().toISOString(), actions },
          keptRemovals: 0,
          warnings: [],
        },
      },
      'GET /api/guilds/900/sync/held': { body: { total: 206, page: 1, pageSize: 50, actions } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Show all 206' }));
    const list = await screen.findByRole('list', { name: 'Held removals' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(list).getByText('Member 49 (Supporter): Discord role taken')).toBeTruthy();
    expect(screen.getByText('Page 1 of 5')).toBeTruthy();
  });

  it('offers Sync now with the last sync, also for a server without a linked group', async () => {
    const fetchMock = setup({
      'GET /api/guilds/900/sync': {
        body: {
          groupEnabled: false,
          lastRunAt: null,
          lastResult: null,
          held: null,
          warnings: [],
          activity: null,
          nextRunAt: null,
        },
      },
      'POST /api/guilds/900/sync': { body: { queued: true } },
    });
    expect(await screen.findByText('Last sync: Never')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(toastTexts()).toContain('Sync queued.'));
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900/sync')).toHaveLength(1);
  });

  it('asks for no sync warnings without Admin, and offers no Sync now', async () => {
    const fetchMock = setup({}, ['ViewGuild']);
    expect(await screen.findByText('Discord Settings')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sync now' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/api/guilds/900/sync')).toHaveLength(0);
  });

  it('edits guest roles in the Guest Users dialog: a change that affects nobody saves at once', async () => {
    const fetchMock = setup({
      'PUT /api/guilds/900/guest_roles': { body: { ...entry, count: 5 } },
      ...noEffect,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Guest Users' }));
    const row = within(await dialog.findByRole('row', { name: 'Guest role 1' }));
    const count = row.getByLabelText('Count') as HTMLSelectElement;
    expect(count.options).toHaveLength(26);
    fireEvent.change(count, { target: { value: '5' } });
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/api/guilds/900/guest_roles')).toHaveLength(1));
    expect(await callsTo(fetchMock, 'PUT', '/api/guilds/900/guest_roles')[0].json()).toEqual({
      ...entry,
      count: 5,
    });
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')[0].json()).toEqual({
      kind: 'guestRole',
      id: entry.id,
      entry: { primaryRoleId: '12', guestRoleId: '13', count: 5 },
    });
    await waitFor(() => expect(toastTexts()).toContain('Guest role updated successfully.'));
    expect(screen.queryByRole('region', { name: 'Change preview' })).toBeNull();
  });

  it("says why a guest-role change failed, in the server's sentence", async () => {
    setup({
      'PUT /api/guilds/900/guest_roles': {
        status: 400,
        body: { message: 'Main and guest role must differ.' },
      },
      ...noEffect,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Guest Users' }));
    const row = within(await dialog.findByRole('row', { name: 'Guest role 1' }));
    fireEvent.change(row.getByLabelText('Count') as HTMLSelectElement, { target: { value: '5' } });
    await waitFor(() =>
      expect(toastTexts()).toContain('Failed to update guest role. Main and guest role must differ.'),
    );
  });

  it('shows what a guest-role change would take from existing guests, and saves only on Save', async () => {
    const fetchMock = setup({
      'PUT /api/guilds/900/guest_roles': { body: { ...entry, count: 1 } },
      'POST /api/guilds/900/sync/preview': {
        body: {
          effects: [
            {
              kind: 'discordRole',
              roleName: 'Guest',
              sentence: 'Guest will be taken from 1 guest.',
              given: [],
              taken: ['Bea'],
            },
          ],
          total: 1,
          warnings: [],
          wouldHold: 0,
          complete: true,
        },
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Guest Users' }));
    const row = within(await dialog.findByRole('row', { name: 'Guest role 1' }));
    fireEvent.change(row.getByLabelText('Count'), { target: { value: '1' } });
    let panel = within(await dialog.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Guest role 1: Count: 2 → 1')).toBeTruthy();
    expect(await panel.findByText('Guest will be taken from 1 guest.')).toBeTruthy();
    fireEvent.click(await panel.findByRole('button', { name: 'Show members' }));
    expect(within(panel.getByRole('list', { name: 'Taken from' })).getByText('Bea')).toBeTruthy();
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(dialog.queryByRole('region', { name: 'Change preview' })).toBeNull());
    expect((row.getByLabelText('Count') as HTMLSelectElement).value).toBe('2');
    expect(callsTo(fetchMock, 'PUT', '/api/guilds/900/guest_roles')).toHaveLength(0);

    // Deleting the entry asks first too; Save then deletes it.
    fireEvent.click(dialog.getByRole('button', { name: 'Remove guest role 1' }));
    panel = within(await dialog.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Delete guest role 1')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', `/api/guilds/900/guest_roles/${entry.id}`)).toHaveLength(0);
    fireEvent.click(await enabledSave(panel));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'DELETE', `/api/guilds/900/guest_roles/${entry.id}`)).toHaveLength(1),
    );
    await waitFor(() => expect(dialog.queryByRole('region', { name: 'Change preview' })).toBeNull());
  });

  it("sends a guest role's version; after another manager's change (409) says so and shows theirs", async () => {
    const stale =
      'Another manager changed this guest role since you opened it. The table now shows their version; check it and save again.';
    const answers: Answers = {
      ...loggedInAs('User'),
      'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: all }] },
      'GET /api/guilds/900': { body: settings },
      'GET /api/guilds/900/guest_roles': { body: { guestRoles: [{ ...entry, version: 2 }] } },
      'PUT /api/guilds/900/guest_roles': { status: 409, body: { message: stale } },
      ...previewAnswer,
    };
    const fetchMock = stubApi(answers);
    renderApp('/server-settings/900/discord');
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Guest Users' }));
    const row = within(await dialog.findByRole('row', { name: 'Guest role 1' }));
    // Meanwhile another manager set the count to 5.
    answers['GET /api/guilds/900/guest_roles'] = {
      body: { guestRoles: [{ ...entry, count: 5, version: 3 }] },
    };
    fireEvent.change(row.getByLabelText('Count'), { target: { value: '1' } });
    const panel = within(await dialog.findByRole('region', { name: 'Change preview' }));
    fireEvent.click(await enabledSave(panel));
    await waitFor(() => expect(toastTexts().some((t) => t?.includes(stale))).toBe(true));
    expect(await callsTo(fetchMock, 'PUT', '/api/guilds/900/guest_roles')[0].json()).toMatchObject({
      count: 1,
      version: 2,
    });
    await waitFor(() => expect((row.getByLabelText('Count') as HTMLSelectElement).value).toBe('5'));
  });

  it('adds a row from the server and tells a failed delete apart from a gone one', async () => {
    const second = {
      id: '1c2b3d4e-0000-4000-8000-000000000002',
      primaryRoleId: null,
      guestRoleId: null,
      count: 0,
    };
    const fetchMock = setup({
      'POST /api/guilds/900/guest_roles': { body: { guestRoles: [entry, second] } },
      [`DELETE /api/guilds/900/guest_roles/${entry.id}`]: { status: 500, body: { message: 'boom' } },
      ...noEffect,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Setup' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Guest Users' }));
    fireEvent.click(await dialog.findByRole('button', { name: 'Add' }));
    const added = within(await dialog.findByRole('row', { name: 'Guest role 2' }));
    expect((added.getByLabelText('Main Role') as HTMLSelectElement).value).toBe('');
    expect(callsTo(fetchMock, 'POST', '/api/guilds/900/guest_roles')).toHaveLength(1);
    fireEvent.click(dialog.getByRole('button', { name: 'Remove guest role 1' }));
    expect(await dialog.findByText('An error occurred while deleting the guest role.')).toBeTruthy();
  });

  it('keeps the settings read-only without Admin, and says what is missing without ViewGuild', async () => {
    setup({}, ['ViewGuild']);
    await screen.findByText('Discord Settings');
    expect(combobox('Linked Users Role').disabled).toBe(true);
  });

  it('explains a missing ViewGuild permission', async () => {
    setup({}, ['ViewWorlds', 'WorldPreview']);
    expect(await screen.findByText(/grant you the ViewGuild permission/)).toBeTruthy();
  });
});
