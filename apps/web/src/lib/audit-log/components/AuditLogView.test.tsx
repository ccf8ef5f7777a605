import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Providers } from '../../../app/Providers';
import { createQueryClient } from '../../../app/queryClient';
import { type Answers, callsTo, loggedInAs, stubApi } from '../../../testing/renderApp';
import { AuditLogView } from './AuditLogView';

const path = '/api/groups/audit_log/900';
const entry = (n: number, extra = {}) => ({
  id: String(n),
  createdAt: '2026-11-20T10:00:00.000Z',
  actorId: '1300000000000000007',
  actorDisplayname: 'neon',
  eventType: 'world.update',
  eventLabel: 'Updated world settings',
  targetId: `world-${n}`,
  target: n === 1 ? { kind: 'world', name: 'Moonlit Lounge' } : null,
  description: 'Updated world settings',
  data: { name: `World ${n}` },
  ...extra,
});
const answer = (auditLogs: object[], totalCount = auditLogs.length) => ({
  body: {
    auditLogs,
    totalCount,
    nextCursor: 'cursor-next',
    previousCursor: 'cursor-previous',
    eventTypes: ['permissions.set', 'world.update'],
    eventLabels: { 'permissions.set': 'Granted permissions', 'world.update': 'Updated world settings' },
  },
});

function setup(extra: Answers = {}) {
  const fetchMock = stubApi({
    ...loggedInAs('User'),
    [`GET ${path}`]: answer(
      [entry(1), entry(2, { actorDisplayname: null, actorId: 'apikey:abc', data: null })],
      60,
    ),
    ...extra,
  });
  render(
    <Providers queryClient={createQueryClient()}>
      <AuditLogView guildId="900" />
    </Providers>,
  );
  return fetchMock;
}
const queries = (fetchMock: ReturnType<typeof setup>) =>
  callsTo(fetchMock, 'GET', path).map((r) => Object.fromEntries(new URL(r.url).searchParams));
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const choose = async (label: string, option: string) => {
  fireEvent.click(screen.getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
};

describe('AuditLogView', () => {
  it('asks for the first page, newest first, and shows the entries', async () => {
    const fetchMock = setup();
    expect(await screen.findByText('world-1')).toBeTruthy();
    expect(queries(fetchMock)[0]).toEqual({
      page: '1',
      pageSize: '25',
      sortBy: 'CreatedAt',
      sortOrder: 'Descending',
    });
    const rows = screen.getAllByRole('row');
    expect(within(rows[1]).getByText('neon')).toBeTruthy();
    expect(within(rows[1]).getByText('1300000000000000007')).toBeTruthy();
    expect(within(rows[2]).getAllByText('apikey:abc')).toHaveLength(2);
    // The event in words, the target by name and kind, the JSON behind an expander.
    expect(within(rows[1]).getAllByText('Updated world settings').length).toBeGreaterThan(0);
    expect(within(rows[1]).queryByText('world.update')).toBeNull();
    expect(within(rows[1]).getByText('Moonlit Lounge')).toBeTruthy();
    expect(within(rows[1]).getByText('World')).toBeTruthy();
    // Named with its entry (the event and when), not one of many 'Show data'.
    const show = within(rows[1]).getByRole('button', { name: /^Show data of Updated world settings, \S/ });
    expect(show.textContent).toBe('Show data');
    expect(show.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(show);
    expect(
      within(rows[1])
        .getByRole('button', { name: /^Hide data of Updated world settings/ })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    expect(within(rows[1]).getByText(/"name": "World 1"/)).toBeTruthy();
    expect(within(rows[2]).queryByRole('button', { name: /^Show data/ })).toBeNull();
    expect(screen.getByText('Total: 60')).toBeTruthy();
    expect(screen.getByText('Page 1 / 3')).toBeTruthy();
  });

  it('shows under the description what changed, as the server summed it up', async () => {
    setup({
      [`GET ${path}`]: answer([
        entry(3, {
          eventType: 'guild.auto_assign_roles',
          description: 'Changed auto-assigned roles',
          data: { summary: 'Linked Users Role: Verified → Event Host' },
        }),
      ]),
    });
    expect(await screen.findByText('Linked Users Role: Verified → Event Host')).toBeTruthy();
  });

  it('pages with Previous and Next by the cursors the shown page gave, disabled at the ends, and changes the page size', async () => {
    const fetchMock = setup();
    await screen.findByText('world-1');
    expect(button('Previous').disabled).toBe(true);
    fireEvent.click(button('Next'));
    await waitFor(() => expect(screen.getByText('Page 2 / 3')).toBeTruthy());
    expect(queries(fetchMock).at(-1)).toMatchObject({ page: '2', cursor: 'cursor-next' });
    // The page after this one starts from this page's edge: Next waits until this page is shown.
    await waitFor(() => expect(button('Next').disabled).toBe(false));
    fireEvent.click(button('Next'));
    await waitFor(() => expect(screen.getByText('Page 3 / 3')).toBeTruthy());
    await waitFor(() => expect(queries(fetchMock)).toHaveLength(3));
    expect(button('Next').disabled).toBe(true);
    await waitFor(() => expect(button('Previous').disabled).toBe(false));
    fireEvent.click(button('Previous'));
    await waitFor(() =>
      expect(queries(fetchMock).at(-1)).toMatchObject({ page: '2', cursor: 'cursor-previous' }),
    );
    // Back to the first page: the newest entries, without a cursor.
    await waitFor(() => expect(button('Previous').disabled).toBe(false));
    fireEvent.click(button('Previous'));
    await waitFor(() => expect(screen.getByText('Page 1 / 3')).toBeTruthy());
    expect(queries(fetchMock).at(-1)).toEqual(queries(fetchMock)[0]);
    fireEvent.click(button('Next'));
    await waitFor(() => expect(screen.getByText('Page 2 / 3')).toBeTruthy());
    await choose('Page size', '50');
    await waitFor(() => expect(queries(fetchMock).at(-1)).toMatchObject({ page: '1', pageSize: '50' }));
    expect(queries(fetchMock).at(-1)?.cursor).toBeUndefined();
    expect(await screen.findByText('Page 1 / 2')).toBeTruthy();
  });

  it('applies the filters on Search only, and Reset clears them', async () => {
    const fetchMock = setup();
    await screen.findByText('world-1');
    type('Actor ID', '1300000000000000007');
    type('Actor Name', 'neon');
    type('From', '2026-11-01');
    type('To', '2026-11-20');
    type('Description/Data', 'lounge');
    type('Target ID', 'world-1');
    await choose('Event Type', 'Updated world settings');
    await choose('Sort By', 'Actor Name');
    await choose('Sort Order', 'Ascending');
    expect(queries(fetchMock)).toHaveLength(1);
    fireEvent.click(button('Search'));
    const filtered = {
      page: '1',
      pageSize: '25',
      actorIds: '1300000000000000007',
      actorNames: 'neon',
      eventTypes: 'world.update',
      startDate: '2026-11-01',
      endDate: '2026-11-20',
      fullTextSearch: 'lounge',
      targetIds: 'world-1',
      sortBy: 'ActorDisplayname',
      sortOrder: 'Ascending',
    };
    await waitFor(() => expect(queries(fetchMock).at(-1)).toEqual(filtered));
    fireEvent.click(button('Reset'));
    await waitFor(() => expect(queries(fetchMock).at(-1)).toEqual(queries(fetchMock)[0]));
    expect((screen.getByLabelText('Actor ID') as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('combobox', { name: 'Event Type' }) as HTMLInputElement).value).toBe('All');
  });

  it('shows the empty state with one page', async () => {
    setup({ [`GET ${path}`]: answer([]) });
    expect(await screen.findByText('No audit logs found.')).toBeTruthy();
    expect(screen.getByText('Page 1 / 1')).toBeTruthy();
    expect(button('Next').disabled).toBe(true);
  });
});
