import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

// useBrowser fails any test whose page reports a Content-Security-Policy violation on the console.
const browser = useBrowser();

describe('security headers in the browser', () => {
  it('serves the web app with the CSP and loads it without violations', async () => {
    const response = await browser.page.goto('/', { waitUntil: 'networkidle' });
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await browser.page.getByText('Seamless Linking and Syncing for VRChat').waitFor();
  });

  it('shows the API docs (Swagger UI) under the same CSP', async () => {
    await browser.goto('/api/docs');
    await browser.page.getByText('VRCLink API').first().waitFor();
    await browser.page.getByText('/api/discord_auth/preview').first().waitFor();
  });
});
