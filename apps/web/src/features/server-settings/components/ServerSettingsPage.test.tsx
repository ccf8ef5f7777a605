import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';

const guilds = [
  { id: '900', name: 'Neon Lounge', icon: null, permissions: ['ViewWorlds', 'WorldPreview'] },
  { id: '901', name: 'Quiet Corner', icon: null, permissions: ['Admin'] },
];

describe('Server settings shell', () => {
  it('lists the servers with a count, with the tab buttons disabled until one is chosen', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    const { router } = renderApp('/server-settings');
    const nav = within(await screen.findByRole('navigation', { name: 'Your servers' }));
    expect(nav.getByLabelText('Total servers').textContent).toBe('2');
    expect(screen.getByText('No Server Selected')).toBeTruthy();
    for (const name of ['Discord', 'VRChat', 'Members', 'Management', 'Worlds'])
      expect((screen.getByRole('tab', { name }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(nav.getByText('Neon Lounge'));
    expect(router.state.location.pathname).toBe('/server-settings/900/discord');
    expect(((await screen.findByRole('tab', { name: 'Worlds' })) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('tab', { name: 'Discord' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says so when a deep link names a server the user cannot manage', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    renderApp('/server-settings/12345/worlds');
    expect(await screen.findByText('No Server Selected')).toBeTruthy();
    expect(screen.getByText('You cannot manage this server, or the bot is not in it.')).toBeTruthy();
  });

  it('shows the empty state and the load failure text', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: [] } });
    renderApp('/server-settings');
    expect(await screen.findByText(/You do not manage any server/)).toBeTruthy();
  });

  it('shows the load failure text', async () => {
    stubApi({
      ...loggedInAs('User'),
      'GET /api/guilds': {
        status: 503,
        body: { message: 'Discord is not reachable right now. Try again later.' },
      },
    });
    renderApp('/server-settings');
    expect(await screen.findByText('Failed to load server information.', {}, { timeout: 4000 })).toBeTruthy();
  });
});
