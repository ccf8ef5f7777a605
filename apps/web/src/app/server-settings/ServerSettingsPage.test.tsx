import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { demoConfig, loggedInAs, renderApp, stubApi } from '../../testing/renderApp';

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
    const neon = nav.getByRole('link', { name: 'Neon Lounge' });
    // A real address, so Tab reaches it; none is marked chosen yet.
    expect(neon.getAttribute('href')).toBe('/server-settings/900/discord');
    expect(nav.queryByRole('link', { current: 'page' })).toBeNull();
    fireEvent.click(neon);
    expect(router.state.location.pathname).toBe('/server-settings/900/discord');
    expect((await nav.findByRole('link', { current: 'page' })).textContent).toContain('Neon Lounge');
    expect(((await screen.findByRole('tab', { name: 'Worlds' })) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.getByRole('tab', { name: 'Discord' }).getAttribute('aria-selected')).toBe('true');
  });

  it('follows the ARIA tabs pattern: one Tab stop, arrows, Home and End open the next tab, a named panel', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    const { router } = renderApp('/server-settings/901/discord');
    const tab = (name: string) => screen.getByRole('tab', { name });
    const discord = await screen.findByRole('tab', { name: 'Discord', selected: true });
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    const panel = screen.getByRole('tabpanel', { name: 'Discord' });
    expect(discord.getAttribute('aria-controls')).toBe(panel.id);
    discord.focus();
    fireEvent.keyDown(discord, { key: 'ArrowRight' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/901/vrchat'));
    expect(document.activeElement).toBe(tab('VRChat'));
    expect(tab('VRChat').getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((t) => t.tabIndex)).toEqual([-1, 0, -1, -1, -1]);
    fireEvent.keyDown(tab('VRChat'), { key: 'End' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/901/worlds'));
    expect(document.activeElement).toBe(tab('Worlds'));
    fireEvent.keyDown(tab('Worlds'), { key: 'ArrowRight' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/901/discord'));
    fireEvent.keyDown(tab('Discord'), { key: 'ArrowLeft' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/901/worlds'));
    fireEvent.keyDown(tab('Worlds'), { key: 'Home' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/901/discord'));
    expect(await screen.findByRole('tabpanel', { name: 'Discord' })).toBeTruthy();
  });

  it('says so when a deep link names a server the user cannot manage', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    renderApp('/server-settings/12345/worlds');
    expect(await screen.findByText('No Server Selected')).toBeTruthy();
    expect(screen.getByText('You cannot manage this server, or the bot is not in it.')).toBeTruthy();
  });

  it('tells someone who manages no server so, and offers to invite the bot', async () => {
    stubApi({
      ...loggedInAs('User'),
      'GET /api/guilds': { body: [] },
      'GET /api/config': { body: demoConfig },
    });
    renderApp('/server-settings');
    expect(await screen.findByText(/You do not manage any server that uses the bot/)).toBeTruthy();
    expect(screen.queryByText('No Server Selected')).toBeNull();
    const invite = await screen.findByRole('link', { name: 'Invite to Server' });
    expect(invite.getAttribute('href')).toBe(demoConfig.inviteUrl);
  });

  it('opens the Discord tab for an unknown or missing tab in the address', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    const { router } = renderApp('/server-settings/901/nonsense');
    expect((await screen.findByRole('tab', { name: 'Discord' })).getAttribute('aria-selected')).toBe('true');
    expect(router.state.location.pathname).toBe('/server-settings/901/discord');
    await act(() => router.navigate('/server-settings/900'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/server-settings/900/discord'));
  });

  it("lays the page out at the header's width, so both line up", async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/guilds': { body: guilds } });
    renderApp('/server-settings');
    const page = (await screen.findByRole('heading', { level: 1, name: 'Server Settings' })).parentElement;
    const header = screen.getByRole('banner').firstElementChild as HTMLElement;
    const width = (el: HTMLElement | null) => el?.style.getPropertyValue('--container-size');
    expect(width(header)).toBeTruthy();
    expect(width(page)).toBe(width(header));
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
