import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { demoConfig, loggedOut, renderApp, stubApi } from '../../../testing/renderApp';

const sectionHeadings = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);

beforeEach(() => {
  stubApi({ ...loggedOut, 'GET /api/config': { body: demoConfig } });
});

describe('legal pages', () => {
  it('lists the Terms of Service sections in order with the date and contact e-mail', async () => {
    renderApp('/tos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(screen.getByText('Last updated: May 17, 2025')).toBeTruthy();
    expect(sectionHeadings()).toEqual([
      'Acceptance',
      'Use of the Service',
      'Poster Management',
      'Intellectual Property',
      'Modifications',
      'Disclaimer and Limitation of Liability',
      'Termination',
      'Changes',
      'Contact',
    ]);
    expect((await screen.findByRole('link', { name: demoConfig.contactEmail })).getAttribute('href')).toBe(
      `mailto:${demoConfig.contactEmail}`,
    );
  });

  it('lists the Privacy Policy sections and retention figures', async () => {
    renderApp('/privacy-policy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(screen.getByText('Last updated: May 17, 2025')).toBeTruthy();
    expect(sectionHeadings()).toHaveLength(10);
    expect(screen.getByText(/up to 72 hours or until you log out/)).toBeTruthy();
    expect(screen.getByText(/API logs are kept for one month/)).toBeTruthy();
    expect(screen.getByText(/while your account is active/)).toBeTruthy();
    expect(screen.getByText(/until you request their deletion/)).toBeTruthy();
    expect(screen.getByText(/session cookies only/)).toBeTruthy();
    // Self-service on the profile page, and a world mirror without history.
    expect(screen.getByText(/'Download My Data'.*'Delete My Account'/s)).toBeTruthy();
    expect(screen.getByText(/each update replaces it entirely, keeping no\s+history/)).toBeTruthy();
  });
});
