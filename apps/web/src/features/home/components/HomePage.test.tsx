import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { demoConfig, loggedOut, renderApp, stubApi } from '../../../testing/renderApp';

beforeEach(() => {
  stubApi({ ...loggedOut, 'GET /api/config': { body: demoConfig } });
});

describe('home page', () => {
  it('shows the tagline, the invite and support links from the config, and the claims', async () => {
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }),
    ).toBeTruthy();
    const invite = await screen.findByRole('link', { name: 'Invite to Server' });
    await vi.waitFor(() => expect(invite.getAttribute('href')).toBe(demoConfig.inviteUrl), {
      timeout: 5_000,
    });
    expect(screen.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(demoConfig.supportUrl);
    expect(screen.getByText('1100+')).toBeTruthy();
    expect(screen.getByText('45K+')).toBeTruthy();
  });

  it('shows the four feature cards and footer links', async () => {
    renderApp('/');
    for (const title of [
      'World Management',
      'Group Synchronization',
      'Automation & Verification',
      'Advanced API Access',
    ]) {
      expect(await screen.findByRole('heading', { name: title })).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy-policy');
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/tos');
  });
});
