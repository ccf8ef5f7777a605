import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { guildPermissions } from '../../guild-access/permissions';

const CONFIG = '/api/guilds/logging/900/config';
const choices = [
  { id: 'links', label: 'Links and unlinks' },
  { id: 'verifications', label: 'Verifications' },
  { id: 'roleChanges', label: 'Role changes by the bot' },
  { id: 'groupSync', label: 'Group sync and held removals' },
  { id: 'settings', label: 'Settings changes' },
  { id: 'failures', label: 'Problems the bot could not fix' },
];
const config = (extra = {}) => ({
  channelId: null,
  eventTypes: [],
  eventTypeChoices: choices,
  problem: null,
  ...extra,
});

function setup(extra: Answers = {}, permissions: string[] = [...guildPermissions]) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions }] },
    [`GET ${CONFIG}`]: { body: config() },
    'GET /api/guilds/channels/900/channels': {
      body: {
        channels: [
          { id: '501', name: 'general' },
          { id: '502', name: 'bot-log' },
        ],
      },
    },
    ...extra,
  });
  renderApp('/server-settings/900/management');
  return fetchMock;
}

/** The section the Management tab opens first (the first render loads the lazy pages: slow on a busy machine). */
const openSection = async () =>
  within(await screen.findByRole('region', { name: 'Logging to Discord' }, { timeout: 15_000 }));

describe('Management tab: Logging to Discord', () => {
  it('offers the channels the bot can post in and saves the channel and event kinds', async () => {
    const fetchMock = setup({
      [`PATCH ${CONFIG}`]: { body: config({ channelId: '502', eventTypes: ['settings', 'failures'] }) },
    });
    const section = await openSection();
    const select = (await section.findByLabelText('Channel', { exact: false })) as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(['None (logging off)', '#general', '#bot-log']);
    fireEvent.change(select, { target: { value: '502' } });
    fireEvent.click(section.getByRole('checkbox', { name: 'Settings changes' }));
    fireEvent.click(section.getByRole('checkbox', { name: 'Problems the bot could not fix' }));
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PATCH', CONFIG)).toHaveLength(1));
    expect(await callsTo(fetchMock, 'PATCH', CONFIG)[0].json()).toEqual({
      channelId: '502',
      eventTypes: ['settings', 'failures'],
    });
    await waitFor(() => expect(toastTexts()).toContain('Logging settings saved.'));
    // The section stays open, showing what was saved.
    expect((section.getByLabelText('Channel', { exact: false }) as HTMLSelectElement).value).toBe('502');
  }, 40_000); // the first render loads the lazy pages: slow on a busy machine

  it('says when posts were dropped because the channel is gone', async () => {
    setup({
      [`GET ${CONFIG}`]: {
        body: config({
          channelId: '599',
          eventTypes: ['links'],
          problem: {
            kind: 'channelGone',
            message: 'The log channel was deleted; posts to it were dropped. Choose another channel.',
            at: '2026-11-25T10:00:00.000Z',
          },
        }),
      },
    });
    const section = await openSection();
    expect((await section.findByRole('alert')).textContent?.includes('The log channel was deleted')).toBe(
      true,
    );
    const select = section.getByLabelText('Channel', { exact: false }) as HTMLSelectElement;
    expect(select.value).toBe('599');
    expect(select.options[1].text).toBe('Unavailable (599)');
  });

  it("shows the server's refusal when saving fails", async () => {
    setup({
      [`PATCH ${CONFIG}`]: { status: 400, body: { message: 'The bot lacks Send Messages in #general.' } },
    });
    const section = await openSection();
    fireEvent.change(await section.findByLabelText('Channel', { exact: false }), {
      target: { value: '501' },
    });
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toastTexts()).toContain('The bot lacks Send Messages in #general.'));
  });

  it('the Audit Log section shows the audit log in place, no dialog', async () => {
    const fetchMock = setup({
      'GET /api/groups/audit_log/900': { body: { auditLogs: [], totalCount: 0, eventTypes: [] } },
    });
    await openSection();
    fireEvent.click(screen.getByRole('link', { name: 'Audit Log' }));
    const section = within(await screen.findByRole('region', { name: 'Audit Log' }));
    expect(await section.findByText('No audit logs found.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo(fetchMock, 'GET', '/api/groups/audit_log/900').length).toBeGreaterThan(0);
  });

  it('is closed to members who are not administrators', async () => {
    const fetchMock = setup({}, ['ViewGuild']);
    expect(await screen.findByText(/^Only administrators can configure logging/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Logging to Discord' })).toBeNull();
    expect(callsTo(fetchMock, 'GET', CONFIG)).toHaveLength(0);
  });
});
