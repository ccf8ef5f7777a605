import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { type Answers, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';

const LOG = '/api/guilds/900/api_log';
const entry = (id: number, extra: object = {}) => ({
  id: String(id),
  time: '2026-11-20T10:00:00.000Z',
  apiKeyId: '1c2b3d4e-0000-4000-8000-00000000000a',
  apiKeyName: 'Board',
  userId: null,
  username: null,
  method: 'GET',
  path: `/api/v1/guilds/900/members?n=${id}`,
  status: 200,
  durationMs: 12,
  ...extra,
});

/** The Management tab of an Admin, 'Access & API Keys' opened; `older` answers the call carrying a cursor. */
async function open(log: Answers[string], older?: object) {
  const answers = stubApi({
    ...loggedInAs('User'),
    'GET /api/guilds': { body: [{ id: '900', name: 'Neon Lounge', icon: null, permissions: ['Admin'] }] },
    'GET /api/guilds/900/api_keys': { body: { apiKeys: [] } },
    [`GET ${LOG}`]: log,
  });
  const fetchMock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    if (older && url.pathname === LOG && url.searchParams.get('cursor') === 'next')
      return new Response(JSON.stringify(older), { headers: { 'Content-Type': 'application/json' } });
    return answers(request);
  });
  vi.stubGlobal('fetch', fetchMock);
  renderApp('/server-settings/900/management/api-keys');
  // The first render loads the lazy pages: slow on a busy machine.
  await screen.findByRole('heading', { name: 'Access & API Keys' }, { timeout: 15_000 });
  return fetchMock;
}

describe('API log', () => {
  it('lists the calls with the key, request, status and duration', async () => {
    await open({
      body: {
        entries: [
          entry(2, { status: 429 }),
          entry(1, { apiKeyName: null }),
          entry(0, { apiKeyId: null, username: 'neon' }),
        ],
        nextCursor: null,
      },
    });
    const table = within(await screen.findByRole('table', { name: 'API log' }));
    const rows = table.getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]).getByText('Board')).toBeTruthy();
    expect(within(rows[1]).getByText('GET /api/v1/guilds/900/members?n=2')).toBeTruthy();
    expect(within(rows[1]).getByText('429')).toBeTruthy();
    expect(within(rows[1]).getByText('12 ms')).toBeTruthy();
    expect(within(rows[2]).getByText('Deleted key')).toBeTruthy();
    expect(within(rows[3]).getByText('neon')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load older calls' })).toBeNull();
    expect(screen.getByRole('link', { name: 'API documentation' }).getAttribute('href')).toBe('/api/docs');
  }, 40_000); // the first render loads the lazy pages: slow on a busy machine

  it('loads older calls with the cursor of the last page', async () => {
    const fetchMock = await open(
      { body: { entries: [entry(2)], nextCursor: 'next' } },
      { entries: [entry(1)], nextCursor: null },
    );
    expect(await screen.findByText('GET /api/v1/guilds/900/members?n=2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load older calls' }));
    expect(await screen.findByText('GET /api/v1/guilds/900/members?n=1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load older calls' })).toBeNull();
    const cursors = fetchMock.mock.calls
      .map(([r]) => new URL(r.url))
      .filter((u) => u.pathname === LOG)
      .map((u) => u.searchParams.get('cursor'));
    expect(cursors).toEqual([null, 'next']);
  });

  it('says when there were no calls', async () => {
    await open({ body: { entries: [], nextCursor: null } });
    expect(await screen.findByText('No API calls in the last 30 days.')).toBeTruthy();
  });

  it('shows an error when loading fails', async () => {
    await open({ status: 500, body: { message: 'Internal server error.' } });
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to load the API log.');
  });
});
