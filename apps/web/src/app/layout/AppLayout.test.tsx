import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { callsTo, demoConfig, loggedInAs, loggedOut, renderApp, stubApi } from '../../testing/renderApp';

const nav = async () => within(await screen.findByRole('navigation', { name: 'Main' }));
const linkNames = async () => (await nav()).getAllByRole('link').map((l) => l.textContent);

describe('navigation bar', () => {
  it('shows only Home and the login button when logged out', async () => {
    stubApi({ ...loggedOut, 'GET /api/config': { body: demoConfig } });
    renderApp('/');
    expect(await linkNames()).toEqual(['Home']);
    expect(screen.getByRole('link', { name: 'Login through Discord' }).getAttribute('href')).toBe(
      '/discord/login',
    );
    expect(screen.queryByText('Logout')).toBeNull();
    // On a phone the navigation is in the menu, but the header still offers the login.
    const header = within(screen.getByRole('banner'));
    expect(header.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/discord/login');
  });

  it('adds Profile, Server Settings and VPM Listing for a logged-in user', async () => {
    stubApi({ ...loggedInAs('User'), 'GET /api/config': { body: demoConfig } });
    renderApp('/');
    expect(await linkNames()).toEqual(['Home', 'Profile', 'Server Settings', 'VPM Listing']);
    expect(screen.getByText('@neon')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Logout' }).getAttribute('href')).toBe('/logout');
    expect(screen.queryByText('User')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Login through Discord' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });

  it('adds the Admin link and a rank badge for admins', async () => {
    stubApi(loggedInAs('Admin'));
    renderApp('/vpm-listing');
    expect(await linkNames()).toEqual(['Home', 'Profile', 'Server Settings', 'VPM Listing', 'Admin']);
    expect(screen.getByText('Admin', { selector: '.mantine-Badge-label' })).toBeTruthy();
  });

  it('highlights the link of the current path', async () => {
    stubApi(loggedInAs('User'));
    renderApp('/server-settings/123');
    const current = (await nav()).getByRole('link', { current: 'page' });
    expect(current.textContent).toBe('Server Settings');
  });

  it("logs out at once from the header's Logout (with the XSRF header) and goes home, without asking", async () => {
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('XSRF-TOKEN=xsrf-123');
    const answers: Record<string, { status?: number; body?: unknown }> = {
      ...loggedInAs('User'),
      'GET /api/logout': { status: 204 },
    };
    const fetchMock = stubApi(answers);
    const { router } = renderApp('/profile');
    const logout = await screen.findByRole('link', { name: 'Logout' });
    answers['GET /api/user'] = loggedOut['GET /api/user'];
    fireEvent.click(logout);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const [call] = callsTo(fetchMock, 'GET', '/api/logout');
    expect(call?.headers.get('X-XSRF-TOKEN')).toBe('xsrf-123');
    expect(await screen.findByRole('link', { name: 'Login through Discord' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Log out' })).toBeNull();
    vi.restoreAllMocks();
  });
});
