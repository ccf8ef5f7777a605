import { readFile } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * Privacy self-service in demo mode: a member made for this journey alone (created on the simulated Discord,
 * so no other journey's seeded user is touched) downloads their data and deletes their account.
 */
const browser = useBrowser();
const simulatorUrl = inject('simulatorUrl');
const HANGOUT = '1300000000000000001';

async function newDiscordMember(username: string): Promise<string> {
  const response = await fetch(`${simulatorUrl}/control/discord/guilds/${HANGOUT}/members`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { userId: string }).userId;
}

describe('privacy self-service', () => {
  it('downloads my data as a JSON file, then deletes my account and signs me out', async () => {
    const { page } = browser;
    const username = `privacy_${Date.now().toString(36)}`;
    const userId = await newDiscordMember(username);
    await browser.signIn({ id: userId });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download My Data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^vrclink-my-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(await readFile((await download.path()) as string, 'utf8'));
    expect(data.account).toMatchObject({ id: userId, username });
    expect(data.sessions).toEqual([expect.objectContaining({ kind: 'web' })]);
    expect(JSON.stringify(data)).not.toMatch(/idHash|tokenHash|_enc/i);

    await page.getByRole('button', { name: 'Delete My Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete My Account' });
    const confirm = dialog.getByRole('button', { name: 'Delete My Account' });
    await dialog.getByLabel(`Type your username (${username}) to confirm`).fill(username.toUpperCase());
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type your username (${username}) to confirm`).fill(username);
    await confirm.click();

    await page.waitForURL(`${browser.baseUrl}/`);
    await page.getByRole('link', { name: 'Login through Discord' }).first().waitFor();
    await browser.goto('/profile');
    await page.getByText('You must be logged in to view this page').waitFor();
    const me = await page.request.get('/api/user');
    expect(me.status()).toBe(401);
  });
});
