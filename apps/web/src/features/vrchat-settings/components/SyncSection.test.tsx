import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { neonDancers, vrchatTabAnswers } from '../testing/fixtures';

const sync = '/api/guilds/900/sync';
const group = neonDancers({ enabled: true, autoKick: true });
const action = (kind: string, targetName: string, roleName: string | null, reason: string) => ({
  kind,
  targetName,
  discordUserId: '1',
  vrcUserId: 'usr_1',
  roleName,
  reason,
});
const status = {
  groupEnabled: true,
  lastRunAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  lastResult: { applied: 12, failed: 1, held: 0 },
  held: null,
  warnings: [],
  activity: null,
  queue: null,
  nextRunAt: null,
};
const preview = {
  total: 6,
  counts: { invite: 3, remove: 1, addDiscordRole: 2 },
  actions: [
    action('invite', 'Aki', null, 'Membership'),
    action('invite', 'Bea', null, 'Membership'),
    action('invite', 'Cyd', null, 'Membership'),
    action('remove', 'Dax', null, 'AutoRemove'),
    action('addDiscordRole', 'Eve', 'Verified 18+', 'Plus18Role'),
    action('addDiscordRole', 'Fay', 'Linked', 'LinkedRole'),
  ],
  wouldHold: 0,
  complete: true,
  estimatedSeconds: 13,
};
const held = {
  count: 7,
  heldAt: new Date().toISOString(),
  actions: ['Gil', 'Hal', 'Ivy', 'Jo', 'Kai', 'Lux', 'Mo'].map((n) =>
    action('remove', n, null, 'AutoRemove'),
  ),
};

function setup(extra: Answers = {}, permissions?: string[]) {
  const fetchMock = stubApi({
    ...vrchatTabAnswers(group, permissions),
    [`GET ${sync}`]: { body: status },
    [`GET ${sync}/preview`]: { body: preview },
    ...extra,
  });
  renderApp('/server-settings/900/vrchat');
  return fetchMock;
}

const section = async () => within(await screen.findByRole('region', { name: 'Sync' }));

describe('VRChat tab, Sync section', () => {
  it('shows the last sync, the counts in words and the next actions', async () => {
    setup();
    const s = await section();
    expect(await s.findByText('3 invites, 1 removal, 2 Discord roles given')).toBeTruthy();
    expect(s.getByText(/5 minutes ago/)).toBeTruthy();
    expect(s.getByText(/12 applied, 1 failed/)).toBeTruthy();
    const table = s.getByRole('table', { name: 'Next sync actions' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(7);
    expect(
      within(rows[5])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Eve', 'Give Discord role', 'Verified 18+', '18+ Verified Role']);
    expect(s.queryByText(/too large for VRChat to list/)).toBeNull();
    expect(s.queryByText(/would hold back/)).toBeNull();
  });

  it('shows a running sync, then its result without a reload, when the next one is due and how long it takes', async () => {
    const answers: Answers = {
      ...vrchatTabAnswers(group),
      [`GET ${sync}`]: {
        body: {
          ...status,
          activity: { state: 'running', since: new Date().toISOString() },
          nextRunAt: new Date(Date.now() + 12 * 60_000 + 5_000).toISOString(),
        },
      },
      [`GET ${sync}/preview`]: { body: preview },
    };
    stubApi(answers);
    renderApp('/server-settings/900/vrchat');
    const s = await section();
    expect(await s.findByText('A sync is running now…')).toBeTruthy();
    expect(s.getByText('Next scheduled sync in 12 minutes.')).toBeTruthy();
    expect(
      await s.findByText("About 13 seconds at the platforms' pace (VRChat takes one request a second)."),
    ).toBeTruthy();
    // The sync finishes: the status is asked again on its own and 'Last sync' moves on.
    answers[`GET ${sync}`] = {
      body: {
        ...status,
        lastRunAt: new Date().toISOString(),
        lastResult: { applied: 6, failed: 0, held: 0 },
      },
    };
    expect(await s.findByText(/6 applied, 0 failed/, {}, { timeout: 4000 })).toBeTruthy();
    expect(s.queryByText('A sync is running now…')).toBeNull();
  });

  it("says 'Never' and 'Nothing to change.' for a fresh group", async () => {
    setup({
      [`GET ${sync}`]: { body: { ...status, lastRunAt: null, lastResult: null } },
      [`GET ${sync}/preview`]: { body: { ...preview, total: 0, counts: {}, actions: [] } },
    });
    const s = await section();
    expect(await s.findByText('Nothing to change.')).toBeTruthy();
    expect(s.getByText('Last sync: Never')).toBeTruthy();
    expect(s.queryByRole('table')).toBeNull();
  });

  it('notes an incomplete member list and removals the breaker would hold', async () => {
    setup({ [`GET ${sync}/preview`]: { body: { ...preview, complete: false, wouldHold: 4 } } });
    const s = await section();
    expect(
      await s.findByText(
        'This group is too large for VRChat to list; Auto Remove only sees the members the bot has seen.',
      ),
    ).toBeTruthy();
    expect(s.getByText('The next sync would hold back 4 removals for review.')).toBeTruthy();
  });

  it('shows only Discord role actions while the Groups feature is off', async () => {
    setup({ 'GET /api/groups/900': { body: { ...group, enabled: false } } });
    const s = await section();
    expect(await s.findByText('2 Discord roles given')).toBeTruthy();
    expect(s.getByText('Enable Groups feature to sync the group.')).toBeTruthy();
    expect(s.queryByText('Aki')).toBeNull();
    expect(s.getByText('Fay')).toBeTruthy();
  });

  it('queues a sync now, saying when it starts', async () => {
    const startsAt = new Date().toISOString();
    const fetchMock = setup({ [`POST ${sync}`]: { body: { queued: true, running: false, startsAt } } });
    const s = await section();
    fireEvent.click(s.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(toastTexts()).toContain('Sync queued. It starts in a few seconds.'));
    expect(callsTo(fetchMock, 'POST', sync)).toHaveLength(1);
  });

  it('says where the sync waits in the queue, in Sync now and in the status, not that it starts now', async () => {
    const queue = { ahead: 21, running: 2, estimatedSeconds: 195, secondsPerSync: 18 };
    setup({
      [`POST ${sync}`]: {
        body: { queued: true, running: false, startsAt: new Date().toISOString(), queue },
      },
      [`GET ${sync}`]: {
        body: { ...status, activity: { state: 'queued', since: new Date().toISOString() }, queue },
      },
    });
    const s = await section();
    expect(
      (await s.findByText('Queued: starts in about 3 minutes, 21 servers ahead.')).getAttribute('role'),
    ).toBe('status');
    fireEvent.click(s.getByRole('button', { name: 'Sync now' }));
    await waitFor(() =>
      expect(toastTexts()).toContain('Sync queued: starts in about 3 minutes, 21 servers ahead.'),
    );
  });

  it('says a sync is running when Sync now joins one waiting behind it', async () => {
    const startsAt = new Date().toISOString();
    setup({ [`POST ${sync}`]: { body: { queued: false, running: true, startsAt } } });
    fireEvent.click((await section()).getByRole('button', { name: 'Sync now' }));
    await waitFor(() =>
      expect(toastTexts()).toContain(
        'A sync is already queued. A sync of this server is running; the next starts when it ends.',
      ),
    );
  });

  it("shows the server's reason when a sync cannot be queued", async () => {
    setup({ [`POST ${sync}`]: { status: 409, body: { message: 'The bot is not in this server.' } } });
    fireEvent.click((await section()).getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(toastTexts()).toContain('The bot is not in this server.'));
  });

  it('asks for the preview again when a group switch changes', async () => {
    const fetchMock = setup({ 'POST /api/groups/900': { body: { ...group, autoKick: false } } });
    const s = await section();
    await s.findByText('Aki');
    expect(callsTo(fetchMock, 'GET', `${sync}/preview`)).toHaveLength(1);
    fireEvent.click(screen.getByRole('switch', { name: /^Auto Remove Members/ }));
    const panel = within(await screen.findByRole('region', { name: 'Change preview' }));
    const save = panel.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    // Save waits for the change's preview.
    await waitFor(() => expect(save.disabled).toBe(false));
    fireEvent.click(save);
    await waitFor(() => expect(callsTo(fetchMock, 'GET', `${sync}/preview`)).toHaveLength(2));
  });

  it('lists the warnings as the server words them', async () => {
    setup({
      [`GET ${sync}`]: {
        body: { ...status, warnings: [{ kind: 'groupRole', message: 'The group role Staff is gone.' }] },
      },
    });
    const s = await section();
    expect(await s.findByText('The group role Staff is gone.')).toBeTruthy();
  });

  it('is not shown, and nothing is asked, without Admin', async () => {
    const fetchMock = setup({}, ['ViewGuild']);
    expect(await screen.findByText('Neon Dancers')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Sync' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', sync)).toHaveLength(0);
    expect(callsTo(fetchMock, 'GET', `${sync}/preview`)).toHaveLength(0);
  });
});

describe('VRChat tab, held removals', () => {
  const withHeld = (extra: Answers = {}) =>
    setup({ [`GET ${sync}`]: { body: { ...status, held } }, ...extra });

  it('names the first few held members', async () => {
    withHeld();
    expect(await screen.findByText('The last sync held back 7 removals')).toBeTruthy();
    expect(screen.getByText('Gil, Hal, Ivy, Jo, Kai and 2 more')).toBeTruthy();
  });

  it('applies them after confirmation', async () => {
    const fetchMock = withHeld({ [`POST ${sync}/held`]: { body: { count: 7 } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Apply Removals' }));
    let dialog = within(await screen.findByRole('dialog'));
    expect(dialog.getByText('Remove 7 members from the VRChat group?')).toBeTruthy();
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', `${sync}/held`)).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Apply Removals' }));
    dialog = within(await screen.findByRole('dialog'));
    fireEvent.click(dialog.getByRole('button', { name: 'Apply Removals' }));
    await waitFor(() => expect(toastTexts()).toContain('7 held removals applied.'));
    expect(await callsTo(fetchMock, 'POST', `${sync}/held`)[0].json()).toEqual({ decision: 'apply' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('discards them', async () => {
    const fetchMock = withHeld({ [`POST ${sync}/held`]: { body: { count: 7 } } });
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(toastTexts()).toContain('7 held removals discarded.'));
    expect(await callsTo(fetchMock, 'POST', `${sync}/held`)[0].json()).toEqual({ decision: 'discard' });
  });

  it('lists every held removal a page at a time, group roles named, before Apply', async () => {
    const many = { ...held, count: 120 };
    const page = Array.from({ length: 50 }, (_, i) =>
      action(i % 2 ? 'remove' : 'removeGroupRole', `Member ${i}`, i % 2 ? null : 'Event Host', 'RevokeRole'),
    );
    const fetchMock = setup({
      [`GET ${sync}`]: { body: { ...status, held: many } },
      [`GET ${sync}/held`]: { body: { total: 120, page: 1, pageSize: 50, actions: page } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Show all 120' }));
    const list = await screen.findByRole('list', { name: 'Held removals' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(list).getByText('Member 0 (Event Host): group role taken')).toBeTruthy();
    expect(within(list).getByText('Member 1: removed from the VRChat group')).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Page 2 of 3')).toBeTruthy());
    const asked = callsTo(fetchMock, 'GET', `${sync}/held`).map((r) =>
      new URL(r.url).searchParams.get('page'),
    );
    expect(asked).toEqual(['1', '2']);
  });

  it('says discarded removals stay held and their members are kept', async () => {
    setup({ [`GET ${sync}`]: { body: { ...status, held: null, keptRemovals: 5 } } });
    expect(
      await screen.findByText(
        '5 discarded removals stay held: those members are kept until the rules stop asking to remove them.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apply Removals' })).toBeNull();
  });

  it('brings discarded removals back for a decision', async () => {
    const fetchMock = setup({
      [`GET ${sync}`]: { body: { ...status, held: null, keptRemovals: 5 } },
      [`POST ${sync}/held`]: { body: { count: 5 } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Review them again' }));
    await waitFor(() => expect(toastTexts()).toContain('5 discarded removals are back for a decision.'));
    expect(await callsTo(fetchMock, 'POST', `${sync}/held`)[0].json()).toEqual({ decision: 'review' });
  });

  it("shows the server's message when the decision fails", async () => {
    withHeld({
      [`POST ${sync}/held`]: { status: 409, body: { message: 'These removals were already decided.' } },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(toastTexts()).toContain('These removals were already decided.'));
  });
});

describe('VRChat tab, Sync section failures', () => {
  it("says what failed to load, with the server's reason", async () => {
    setup({
      [`GET ${sync}`]: { status: 503, body: { message: 'The database is unavailable.' } },
      [`GET ${sync}/preview`]: { status: 503, body: { message: 'VRChat is unavailable.' } },
    });
    const s = await section();
    expect(await s.findByText('Failed to load the sync status. The database is unavailable.')).toBeTruthy();
    expect(await s.findByText('Failed to load the next sync. VRChat is unavailable.')).toBeTruthy();
  });
});
