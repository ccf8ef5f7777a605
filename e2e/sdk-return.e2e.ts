import { describe, expect, it } from 'vitest';
import { ADMIN_DISCORD_ID, useBrowser } from './browser';

const browser = useBrowser();

/** The Unity editor's side: plain HTTP calls without browser cookies. */
const editor = {
  async start(): Promise<string> {
    const response = await fetch(`${browser.baseUrl}/api/sdk-login`);
    return ((await response.json()) as { token: string }).token;
  },
  async poll(token: string): Promise<{ status: string; username?: string }> {
    const response = await fetch(`${browser.baseUrl}/api/sdk-login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { status: string; username?: string };
  },
};

/** On the simulator's consent page: picks a member who is not the admin and presses the button. */
async function consentAsMember(decision: 'Authorize' | 'Cancel'): Promise<string> {
  const { page } = browser;
  await page.waitForURL(/\/oauth2\/authorize/);
  const user = page.locator(`input[name="user_id"]:not([value="${ADMIN_DISCORD_ID}"])`).first();
  const username = (await user.getAttribute('aria-label')) ?? '';
  await user.check();
  await page.getByRole('button', { name: decision }).click();
  return username;
}

describe('SDK login from a logged-out browser, Deny, and login failures', () => {
  it('keeps the SDK request through the Discord login and lands back on it', async () => {
    const { page } = browser;
    const token = await editor.start();
    const approval = `/sdk-oauth?token=${encodeURIComponent(token)}`;
    await browser.goto(approval);
    await page.getByText('You must be logged in to view this page').waitFor();
    // The page's own button (the header's comes first) carries the way back.
    await page.getByRole('link', { name: 'Login through Discord' }).last().click();
    const username = await consentAsMember('Authorize');
    await page.waitForURL(`${browser.baseUrl}${approval}`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Access granted').waitFor();
    expect(await editor.poll(token)).toMatchObject({ status: 'Ok', username });
  });

  it('Deny refuses the request at once: the editor’s next poll answers Unauthorized', async () => {
    const { page } = browser;
    await browser.signIn('member');
    const token = await editor.start();
    await browser.goto(`/sdk-oauth?token=${encodeURIComponent(token)}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${browser.baseUrl}/`);
    expect((await editor.poll(token)).status).toBe('Unauthorized');
  });

  it('a malformed token reads as a sentence, not validator text', async () => {
    const { page } = browser;
    await browser.signIn('member');
    await browser.goto('/sdk-oauth?token=abc');
    // Refused before asking: the sentence, and no Allow to press.
    await page
      .getByText('This sign-in link is not valid. Start the login again from the VRChat SDK in Unity.')
      .waitFor();
    expect(await page.getByText(/Too small|Invalid body/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });

  it('cancelling on Discord’s consent page says so on the home page', async () => {
    const { page } = browser;
    await browser.goto('/');
    await page.getByRole('link', { name: 'Login through Discord' }).click();
    await consentAsMember('Cancel');
    await page.waitForURL(`${browser.baseUrl}/?loginError=cancelled`);
    await page.getByText('Login was cancelled in Discord.').waitFor();
  });
});
