import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, demoConfig, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { BOT_ACCOUNT, GROUP_ID as grp, neonDancers, vrchatTabAnswers } from '../testing/fixtures';

const base = '/api/groups/900';
const group = neonDancers({ enabled: false, autoKick: true });
const notLinked = { status: 404, body: { message: 'No VRChat group is linked to this server.' } };
const info = {
  id: grp,
  name: 'Neon Dancers',
  iconUrl: null,
  linkCode: 'VRCL-ABCD2345',
  botAccount: BOT_ACCOUNT,
};

function setup(extra: Answers = {}, permissions?: string[]) {
  const fetchMock = stubApi({
    ...vrchatTabAnswers(group, permissions),
    ...extra,
  });
  renderApp('/server-settings/900/vrchat');
  return fetchMock;
}

// A switch is named by its label and then its description.
const switchOf = (label: string) =>
  screen.getByRole('switch', { name: new RegExp(`^${label}`) }) as HTMLInputElement;
const findSwitch = (label: string) => screen.findByRole('switch', { name: new RegExp(`^${label}`) });
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const bodyOf = async (fetchMock: ReturnType<typeof stubApi>, path: string, i = 0) =>
  callsTo(fetchMock, 'POST', path)[i].json();

describe('VRChat tab, linked', () => {
  it('shows the group, its counts and page link; the role setups open for an Admin', async () => {
    setup();
    expect(await screen.findByText('Neon Dancers')).toBeTruthy();
    expect(screen.getByText('42')).toBeTruthy();
    expect(screen.getByText('Online Members')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: /Open Group Page/ }).getAttribute('href')).toBe(
        `${demoConfig.vrchatWebUrl}/home/group/${grp}`,
      ),
    );
    expect(button('Discord to Group Roles setup').disabled).toBe(false);
    expect(button('Group to Discord Roles setup').disabled).toBe(false);
    expect(switchOf('Enable Groups feature').checked).toBe(false);
    expect(switchOf('Auto Remove Members without membership').checked).toBe(true);
  });

  it('names the bot account serving the group, linked to its VRChat profile', async () => {
    setup();
    const note = await screen.findByTestId('bot-account');
    expect(note.textContent).toBe(
      "The bot's VRChat account VRCLink Bot 2 serves this group. It must be a member of the group: if the group is not open, invite VRCLink Bot 2 to it or accept its join request.",
    );
    await waitFor(() =>
      expect(within(note).getByRole('link', { name: 'VRCLink Bot 2' }).getAttribute('href')).toBe(
        `${demoConfig.vrchatWebUrl}/home/user/${BOT_ACCOUNT.userId}`,
      ),
    );
  });

  it('previews a switch, saves it on Save and shows what the server answered', async () => {
    const fetchMock = setup({
      [`POST ${base}`]: { body: { ...group, enabled: true } },
      'POST /api/guilds/900/sync/preview': {
        body: {
          effects: [
            {
              kind: 'invite',
              roleName: null,
              sentence: '2 people will be invited to the group.',
              given: ['Aki', 'Bo'],
              taken: [],
            },
          ],
          total: 2,
          warnings: [],
          wouldHold: 0,
          complete: true,
        },
      },
    });
    fireEvent.click(await findSwitch('Enable Groups feature'));
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    expect(panel.getByText('Enable Groups feature: off → on')).toBeTruthy();
    expect(await panel.findByText('2 people will be invited to the group.')).toBeTruthy();
    expect(await callsTo(fetchMock, 'POST', '/api/guilds/900/sync/preview')[0].json()).toEqual({
      kind: 'groupSettings',
      enabled: true,
    });
    expect(callsTo(fetchMock, 'POST', base)).toHaveLength(0);
    fireEvent.click(panel.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'POST', base)).toHaveLength(1));
    expect(await bodyOf(fetchMock, base)).toEqual({ enabled: true });
    await waitFor(() => expect(switchOf('Enable Groups feature').checked).toBe(true));
  });

  it('Cancel leaves a switch as it was and saves nothing', async () => {
    const fetchMock = setup();
    fireEvent.click(await findSwitch('Auto Remove Members without membership'));
    expect(switchOf('Auto Remove Members without membership').checked).toBe(false);
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    fireEvent.click(panel.getByRole('button', { name: 'Cancel' }));
    expect(switchOf('Auto Remove Members without membership').checked).toBe(true);
    expect(callsTo(fetchMock, 'POST', base)).toHaveLength(0);
  });

  it('unlinks after confirmation and returns to the unlinked screen', async () => {
    const fetchMock = setup({ [`DELETE ${base}`]: { status: 204 } });
    fireEvent.click(await screen.findByRole('button', { name: 'Unlink Group' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to unlink this group?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'DELETE', base)).toHaveLength(0);
    fireEvent.click(button('Unlink Group'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('Group not Linked')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', base)).toHaveLength(1);
  });

  it('opens the audit log full screen for an Admin', async () => {
    const fetchMock = setup({
      'GET /api/groups/audit_log/900': { body: { auditLogs: [], totalCount: 0, eventTypes: [] } },
    });
    expect(await screen.findByText('Neon Dancers')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', '/api/groups/audit_log/900')).toHaveLength(0);
    fireEvent.click(button('View Audit Log'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Audit Log' }));
    expect(await dialog.findByText('No audit logs found.')).toBeTruthy();
  });

  it('is read-only without Admin', async () => {
    setup({}, ['ViewGuild']);
    expect(await screen.findByText('Neon Dancers')).toBeTruthy();
    expect(button('Unlink Group').disabled).toBe(true);
    expect(button('View Audit Log').disabled).toBe(true);
    expect(switchOf('Enable Groups feature').disabled).toBe(true);
  });

  it('shows No access without ViewGuild, and asks nothing', async () => {
    const fetchMock = setup({}, ['ViewWorlds']);
    expect(await screen.findByText('No access')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', base)).toHaveLength(0);
  });
});

describe('VRChat tab, linking', () => {
  const linking = (extra: Answers = {}) =>
    setup({
      [`GET ${base}`]: notLinked,
      [`POST ${base}/link/start`]: { body: info },
      [`POST ${base}/link/check`]: { body: { status: 'CodeFound' } },
      ...extra,
    });
  const startWith = async (text: string) => {
    const input = await screen.findByLabelText('Group ID');
    fireEvent.change(input, { target: { value: text } });
    fireEvent.click(button('Start Linking Group'));
  };

  it('enables Start only for a grp_ UUID, and reduces pasted text to the id', async () => {
    linking();
    const input = (await screen.findByLabelText('Group ID')) as HTMLInputElement;
    expect(screen.getByText('Group not Linked')).toBeTruthy();
    expect(button('Start Linking Group').disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'grp_123' } });
    expect(button('Start Linking Group').disabled).toBe(true);
    fireEvent.paste(input, {
      clipboardData: { getData: () => `https://vrchat.com/home/group/${grp}/about` },
    });
    expect(input.value).toBe(grp);
    expect(button('Start Linking Group').disabled).toBe(false);
  });

  it('shows the link code and, once found, links the group as a member', async () => {
    const fetchMock = linking({ [`POST ${base}/link/join`]: { body: { status: 'Member' } } });
    await startWith(`see ${grp}`);
    expect(await screen.findByText('VRCL-ABCD2345')).toBeTruthy();
    expect(await bodyOf(fetchMock, `${base}/link/start`)).toEqual({ groupId: grp });
    expect(screen.getByText(/may remove it from the description/)).toBeTruthy();
    expect(screen.getByTestId('bot-account').textContent).toMatch(
      /^The bot's VRChat account VRCLink Bot 2 will serve this group\./,
    );
    fireEvent.click(button('Check Code'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Code found in group description')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('link', { name: "Open the group's invites and join requests" })
        .getAttribute('href'),
    ).toBe(`${demoConfig.vrchatWebUrl}/home/group/${grp}/members/invites`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Link Group' }));
    await waitFor(() => expect(toastTexts()).toContain('Group successfully linked'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'GET', base).length).toBeGreaterThan(1);
  });

  it.each([
    ['Requested', /Accept its join request.*press Link Group again/],
    ['Invited', /invite-only: invite the bot \(VRCLink Bot 2\) to the group/],
  ])('explains %s and keeps the dialog open', async (status, text) => {
    linking({ [`POST ${base}/link/join`]: { body: { status } } });
    await startWith(grp);
    fireEvent.click(await screen.findByRole('button', { name: 'Check Code' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Link Group' }));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('says when the code is not in the description yet', async () => {
    linking({ [`POST ${base}/link/check`]: { body: { status: 'CodeNotFound' } } });
    await startWith(grp);
    fireEvent.click(await screen.findByRole('button', { name: 'Check Code' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Code not found in group description')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Link Group' })).toBeNull();
  });

  it('stays on the id entry when the group does not exist, and reports a failed check', async () => {
    linking({ [`POST ${base}/link/start`]: { status: 404, body: { message: 'VRChat group not found.' } } });
    await startWith(grp);
    await waitFor(() => expect(toastTexts()).toContain('Error while linking, does the group exist ?'));
    expect(screen.getByText('Group not Linked')).toBeTruthy();
  });

  it("shows the server's reason when the group is linked to another server", async () => {
    linking({
      [`POST ${base}/link/start`]: {
        status: 409,
        body: { message: 'This VRChat group is already linked to another server.' },
      },
    });
    await startWith(grp);
    await waitFor(() =>
      expect(toastTexts()).toContain('This VRChat group is already linked to another server.'),
    );
    expect(toastTexts()).not.toContain('Error while linking, does the group exist ?');
  });

  it("reports 'Error while linking' when the check fails", async () => {
    linking({ [`POST ${base}/link/check`]: { status: 503, body: { message: 'down' } } });
    await startWith(grp);
    fireEvent.click(await screen.findByRole('button', { name: 'Check Code' }));
    await waitFor(() => expect(toastTexts()).toContain('Error while linking'));
  });

  it('says when to try again when VRChat is limiting requests at Check Code (Retry-After)', async () => {
    linking({
      [`POST ${base}/link/check`]: {
        status: 503,
        headers: { 'Retry-After': '12' },
        body: { message: 'VRChat is rate limiting requests. Try again in 12 seconds.' },
      },
    });
    await startWith(grp);
    fireEvent.click(await screen.findByRole('button', { name: 'Check Code' }));
    await waitFor(() =>
      expect(toastTexts()).toEqual(['VRChat is limiting requests. Try again in 12 seconds.']),
    );
  });
});

describe('VRChat tab, waiting on VRChat', () => {
  afterEach(() => vi.useRealTimers());
  const SLOW = 'VRChat is slow to answer; still trying…';

  it('says after 3 s that VRChat is slow while the group loads, then shows the group', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup({ [`GET ${base}`]: { body: group, delayMs: 6000 } });
    expect(await screen.findByText('Loading..')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(screen.queryByText(SLOW)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(600));
    expect(screen.getByText(SLOW)).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(await screen.findByText('Neon Dancers')).toBeTruthy();
    expect(screen.queryByText(SLOW)).toBeNull();
  });

  it('says after 3 s that VRChat is slow while Check Code waits', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setup({
      [`GET ${base}`]: notLinked,
      [`POST ${base}/link/start`]: { body: info },
      [`POST ${base}/link/check`]: { body: { status: 'CodeNotFound' }, delayMs: 5000 },
    });
    fireEvent.change(await screen.findByLabelText('Group ID'), { target: { value: grp } });
    fireEvent.click(button('Start Linking Group'));
    fireEvent.click(await screen.findByRole('button', { name: 'Check Code' }));
    await act(() => vi.advanceTimersByTimeAsync(3100));
    expect(screen.getByText(SLOW).closest('[role="status"]')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(await screen.findByText('Code not found in group description')).toBeTruthy();
  });
});
