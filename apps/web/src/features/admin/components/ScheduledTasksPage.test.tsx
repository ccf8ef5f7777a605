import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Answers, callsTo, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { toastTexts } from '../../../testing/toasts';
import { runTask, toggleTask } from '../api/scheduledTasks';
import { TASK_CARDS_QUERY } from './TaskTable';

const TASKS = '/api/admin/scheduled-tasks';
const now = Date.parse('2026-11-23T12:00:00.000Z');
const task = (container: string, method: string, over: object = {}) => ({
  api: 'vrclink',
  container,
  method,
  title: method === 'purgeExpired' ? 'Purge expired data' : 'Refresh linked accounts',
  description: method === 'purgeExpired' ? 'deletes expired sessions' : 're-reads linked accounts',
  job: 'retention.purge',
  nextRun: new Date(now + 65_000).toISOString(),
  lastRun: new Date(now - (2 * 3600 + 3 * 60 + 4) * 1000).toISOString(),
  timer: 3600,
  enabled: true,
  runRequested: false,
  lastError: null,
  ...over,
});
const status = {
  processes: [
    {
      api: 'vrclink',
      container: 'box-a',
      roles: ['api', 'bot', 'worker'],
      startedAt: new Date(now).toISOString(),
      heartbeatAt: new Date(now).toISOString(),
      discord: { gateway: 'ready' },
      vrchat: { status: 'needs_2fa', since: new Date(now).toISOString() },
      self: true,
    },
  ],
  queue: { queued: 2, active: 1, failedLast24h: 3, queues: [] },
  vrchatAccounts: [
    {
      account: 'vrclink-bot',
      groups: 100,
      groupLimit: 100,
      vrchat: { status: 'ok', since: new Date(now).toISOString() },
      budgetWaitSeconds: 0,
    },
    {
      account: 'vrclink-bot-2',
      groups: 37,
      groupLimit: 100,
      vrchat: {
        status: 'login_failed',
        since: new Date(now).toISOString(),
        lastError: 'Invalid Username/Email or Password',
      },
      budgetWaitSeconds: 42,
    },
  ],
};

const recentJobs = [
  {
    id: 'j2',
    name: 'discordLog.deliver',
    title: 'Deliver Discord logs',
    state: 'failed',
    createdAt: new Date(now - 70_000).toISOString(),
    startedAt: new Date(now - 65_000).toISOString(),
    completedAt: new Date(now - 60_000).toISOString(),
    error: 'Discord answered 403.',
  },
  {
    id: 'j1',
    name: 'sync.all',
    title: 'Sync all servers',
    state: 'completed',
    createdAt: new Date(now - 3_600_000).toISOString(),
    startedAt: new Date(now - 3_600_000).toISOString(),
    completedAt: new Date(now - 3_599_000).toISOString(),
    error: null,
  },
];

/** "in 1m 5s" or, once the clock ran on past a minute, "in 59s". */
const NEXT_RUN = /^in (?:1m )?\d+s$/;
const secondsUntil = (text: string | null) => {
  const [, minutes = '0', seconds = '0'] = /^in (?:(\d+)m )?(\d+)s$/.exec(text ?? '') ?? [];
  return Number(minutes) * 60 + Number(seconds);
};

function setup(extra: Answers = {}) {
  return stubApi({
    ...loggedInAs('Admin'),
    [`GET ${TASKS}/get_tasks`]: {
      body: {
        tasks: [
          task('box-a', 'purgeExpired'),
          task('box-a', 'refreshStaleLinks'),
          task('box-b', 'purgeExpired'),
        ],
      },
    },
    'GET /api/admin/status': { body: status },
    'GET /api/admin/world-mirror': { body: { configured: false, remote: null, branch: 'main', url: null } },
    'GET /api/admin/jobs/recent': { body: { jobs: recentJobs } },
    ...extra,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('/admin', () => {
  it('sends a user who is not a platform admin home', async () => {
    stubApi(loggedInAs('User'));
    const { router } = renderApp('/admin');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('groups the tasks by api and container with relative times that move every second', async () => {
    vi.useFakeTimers({ now, shouldAdvanceTime: true });
    setup();
    renderApp('/admin');
    const boxA = within(await screen.findByRole('region', { name: 'vrclink box-a' }));
    // The page's title is its one h1, as on every other page.
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Admin']);
    const row = within(boxA.getAllByRole('row')[1]);
    // The task in words with a line on what it does; the method under it, whole.
    expect(row.getByText('Purge expired data')).toBeTruthy();
    expect(row.getByText('deletes expired sessions')).toBeTruthy();
    expect(row.getByText('purgeExpired')).toBeTruthy();
    // The clock runs on while the page loads (shouldAdvanceTime): a loaded machine may take a few seconds.
    const first = secondsUntil(row.getByText(NEXT_RUN).textContent);
    expect(first).toBeLessThanOrEqual(65);
    expect(first).toBeGreaterThan(50);
    expect(row.getByText(/^2h 3m \d+s ago$/)).toBeTruthy();
    // The timer in words, not in seconds.
    expect(row.getByText('every hour')).toBeTruthy();
    expect(row.queryByText('3600')).toBeNull();
    expect(boxA.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('region', { name: 'vrclink box-b' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(2000));
    await waitFor(() =>
      expect(secondsUntil(row.getByText(NEXT_RUN).textContent)).toBeLessThanOrEqual(first - 2),
    );
  });

  it('shows each task as a card on a phone, every column with its label', async () => {
    vi.useFakeTimers({ now, shouldAdvanceTime: true });
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === TASK_CARDS_QUERY,
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
          addListener: () => {},
          removeListener: () => {},
        }) as unknown as MediaQueryList,
    );
    setup();
    renderApp('/admin');
    const boxA = within(await screen.findByRole('region', { name: 'vrclink box-a' }));
    const card = within(await boxA.findByRole('listitem', { name: 'purgeExpired' }));
    expect(boxA.queryByRole('table')).toBeNull();
    expect(boxA.getAllByRole('listitem')).toHaveLength(2);
    for (const [label, value] of [
      ['Next Run', NEXT_RUN],
      ['Last Run', /^2h 3m \d+s ago$/],
      ['Timer', /^every hour$/],
    ] as const) {
      expect(card.getByText(label).nextElementSibling?.textContent).toMatch(value);
    }
    expect((card.getByRole('checkbox', { name: 'Enabled purgeExpired' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(card.getByRole('button', { name: 'Run now: purgeExpired' })).toBeTruthy();
  });

  it('lists recent jobs in words with their outcome, a failure with its error', async () => {
    vi.useFakeTimers({ now, shouldAdvanceTime: true });
    setup();
    renderApp('/admin');
    const panel = within(await screen.findByRole('region', { name: 'Recent Jobs' }));
    const failed = within(await panel.findByRole('listitem', { name: 'Deliver Discord logs: Failed' }));
    // The fake clock flows with real time: on a busy machine the panel may mount seconds later.
    expect(failed.getByText(/^1m \d+s ago$/)).toBeTruthy();
    expect(failed.getByText('Discord answered 403.')).toBeTruthy();
    expect(panel.getByRole('listitem', { name: 'Sync all servers: Succeeded' })).toBeTruthy();
    expect(panel.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      'Deliver Discord logs: Failed',
      'Sync all servers: Succeeded',
    ]);
  });

  it('polls the task list every second', async () => {
    const fetchMock = setup();
    renderApp('/admin');
    await screen.findByRole('region', { name: 'vrclink box-a' });
    const before = callsTo(fetchMock, 'GET', `${TASKS}/get_tasks`).length;
    await waitFor(
      () => expect(callsTo(fetchMock, 'GET', `${TASKS}/get_tasks`).length).toBeGreaterThan(before),
      {
        timeout: 2500,
      },
    );
  });

  it('toggles a task through its own URL and shows the answer', async () => {
    const fetchMock = setup({
      [`POST ${TASKS}/toggle/vrclink/box-b/purgeExpired`]: {
        body: task('box-b', 'purgeExpired', { enabled: false }),
      },
    });
    renderApp('/admin');
    const boxB = within(await screen.findByRole('region', { name: 'vrclink box-b' }));
    fireEvent.click(boxB.getByRole('checkbox', { name: 'Enabled purgeExpired' }));
    await waitFor(() =>
      expect(callsTo(fetchMock, 'POST', `${TASKS}/toggle/vrclink/box-b/purgeExpired`)).toHaveLength(1),
    );
  });

  it("says 'Failed to toggle task state.' when the toggle fails", async () => {
    setup({
      [`POST ${TASKS}/toggle/vrclink/box-a/purgeExpired`]: { status: 500, body: { message: 'boom' } },
    });
    renderApp('/admin');
    const boxA = within(await screen.findByRole('region', { name: 'vrclink box-a' }));
    fireEvent.click(boxA.getByRole('checkbox', { name: 'Enabled purgeExpired' }));
    await waitFor(() => expect(toastTexts()).toContain('Failed to toggle task state. boom'));
  });

  it("runs a task now and shows its Last Run as 'just now'", async () => {
    // The server's answers after the run carry the time it fired.
    let ranAt: string | null = null;
    const ran = () => ({
      ...task('box-a', 'refreshStaleLinks'),
      get lastRun() {
        return ranAt ?? task('box-a', 'x').lastRun;
      },
    });
    const fetchMock = setup({
      [`GET ${TASKS}/get_tasks`]: {
        get body() {
          return { tasks: [task('box-a', 'purgeExpired'), ran()] };
        },
      },
      [`POST ${TASKS}/run/vrclink/box-a/refreshStaleLinks`]: {
        get body() {
          ranAt = new Date().toISOString();
          return ran();
        },
      },
    });
    // The clock stands still (timers run): 'just now' must not turn into '1s ago' on a slow machine.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    renderApp('/admin');
    const boxA = within(await screen.findByRole('region', { name: 'vrclink box-a' }));
    fireEvent.click(boxA.getByRole('button', { name: 'Run now: refreshStaleLinks' }));
    expect(await boxA.findByText('just now')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', `${TASKS}/run/vrclink/box-a/refreshStaleLinks`)).toHaveLength(1);
  });

  it('shows the platform state, the queue, and retries the VRChat login', async () => {
    const fetchMock = setup({
      'POST /api/admin/vrchat/retry-login': {
        body: { container: 'box-a', vrchat: { status: 'ok', since: new Date().toISOString() } },
      },
    });
    renderApp('/admin');
    const proc = within(await screen.findByRole('region', { name: 'Process box-a' }));
    expect(proc.getByText('Needs 2FA')).toBeTruthy();
    expect(proc.getByText('Connected')).toBeTruthy();
    expect(screen.getByText('Failed (24 h)').nextSibling?.textContent).toBe('3');
    fireEvent.click(screen.getByRole('button', { name: 'Retry login' }));
    await waitFor(() => expect(toastTexts()).toContain('VRChat login on box-a: Logged in.'));
    expect(callsTo(fetchMock, 'POST', '/api/admin/vrchat/retry-login')).toHaveLength(1);
  });

  it('lists every VRChat bot account with its groups of 100, its login and its budget wait (not only the first in trouble)', async () => {
    setup();
    renderApp('/admin');
    const table = within(await screen.findByRole('region', { name: 'VRChat bot accounts table' }));
    const rows = table.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual([
      'AccountGroupsLoginBudget wait',
      'vrclink-bot100 / 100Logged innone',
      'vrclink-bot-237 / 100Login failedInvalid Username/Email or Password42 s',
    ]);
  });

  it('says so when no worker process runs', async () => {
    setup({ [`GET ${TASKS}/get_tasks`]: { body: { tasks: [] } } });
    renderApp('/admin');
    expect(await screen.findByText('No scheduled tasks: no worker process is running.')).toBeTruthy();
  });
});

describe('the task calls', () => {
  it('refuse a missing api, container or task name before sending', async () => {
    const fetchMock = stubApi({});
    await expect(toggleTask({ api: null, container: 'c', method: 'm' })).rejects.toThrow(
      'Required parameter api was null or undefined when calling toggleScheduledTask',
    );
    await expect(runTask({ api: 'a', container: undefined, method: 'm' })).rejects.toThrow(
      'Required parameter container was null or undefined when calling runScheduledTask',
    );
    await expect(runTask({ api: 'a', container: 'c', method: null })).rejects.toThrow(
      'Required parameter taskName was null or undefined when calling runScheduledTask',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
