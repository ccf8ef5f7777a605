import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import type { WorldMirrorStatus } from '../api/worldMirror';

const now = Date.parse('2026-11-23T12:00:00.000Z');
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

const mirror = (over: Partial<WorldMirrorStatus> = {}): WorldMirrorStatus => ({
  configured: true,
  remote: 'https://***@github.com/owner/mirror.git',
  branch: 'main',
  url: 'https://owner.github.io/mirror',
  servedLocally: false,
  lastRunAt: ago(30),
  lastSuccessAt: ago(30),
  lastCommit: 'abc123',
  lastCommitAt: ago(90),
  worlds: 4,
  worldsNotBuilt: 0,
  lastError: null,
  lastErrorAt: null,
  consecutiveFailures: 0,
  ...over,
});

async function open(answer: WorldMirrorStatus) {
  // Only the clock is fixed (timers run for real, so findBy* waits): "1m 30s ago" stays that while a loaded
  // machine takes seconds to render the page (with the clock running on it read "1m 31s ago").
  vi.useFakeTimers({ now, toFake: ['Date'] });
  stubApi({ ...loggedInAs('Admin'), 'GET /api/admin/world-mirror': { body: answer } });
  renderApp('/admin');
  return within(await screen.findByRole('region', { name: 'World mirror' }));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('/admin world mirror panel', () => {
  it('shows where the mirror pushes, its address and its last push', async () => {
    const panel = await open(mirror());
    expect(await panel.findByText('https://***@github.com/owner/mirror.git (main)')).toBeTruthy();
    expect(panel.getByText('https://owner.github.io/mirror/worlds/<guid>')).toBeTruthy();
    expect(panel.getByText('1m 30s ago')).toBeTruthy();
    expect(panel.getByText('4')).toBeTruthy();
    expect(panel.queryByRole('alert')).toBeNull();
  });

  it('shows a failing push to platform admins until a run succeeds', async () => {
    const panel = await open(
      mirror({
        lastError: 'git push failed: remote: Permission to owner/mirror.git denied to bot.',
        lastErrorAt: ago(5),
        consecutiveFailures: 3,
      }),
    );
    const alert = within(await panel.findByRole('alert'));
    expect(alert.getByText('The last 3 runs failed.')).toBeTruthy();
    expect(
      alert.getByText('git push failed: remote: Permission to owner/mirror.git denied to bot.'),
    ).toBeTruthy();
    expect(alert.getByText(/^5s ago; it is retried/)).toBeTruthy();
  });

  it('says when no mirror is configured', async () => {
    const panel = await open(mirror({ configured: false, remote: null, url: null }));
    expect(
      await panel.findByText(
        'No mirror is configured: set WORLD_MIRROR_REMOTE to publish world data to GitHub Pages.',
      ),
    ).toBeTruthy();
  });
});
