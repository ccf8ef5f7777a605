import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';

const browser = useBrowser();

interface SdkLoginResult {
  status: string;
  token?: string;
  id?: string;
  username?: string;
  rank?: string;
}

interface VpmListing {
  name: string;
  id: string;
  url: string;
  author: string;
  packages: Record<string, { versions: Record<string, Record<string, unknown>> }>;
}

/** The Unity editor's side of the login: plain HTTP calls without browser cookies. */
const editor = {
  async start(): Promise<string> {
    const response = await fetch(`${browser.baseUrl}/api/sdk-login`);
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    expect(token).toEqual(expect.any(String));
    return token;
  },
  async poll(token: string): Promise<SdkLoginResult> {
    const response = await fetch(`${browser.baseUrl}/api/sdk-login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as SdkLoginResult;
  },
  user(headers: Record<string, string>) {
    return fetch(`${browser.baseUrl}/api/user`, { headers });
  },
  get(path: string, accessToken: string) {
    return fetch(`${browser.baseUrl}${path}`, { headers: { Authorization: `Bearer ${accessToken}` } });
  },
};

const loginAsMember = () => browser.signIn('member');

async function openApproval(token: string): Promise<void> {
  await browser.goto(`/sdk-oauth?token=${encodeURIComponent(token)}`);
  await browser.page.getByRole('heading', { name: 'Authorize application' }).waitFor();
}

describe('Unity SDK editor login', () => {
  it('lets the signed-in user allow the editor, which then acts as them with its access token', async () => {
    const { page } = browser;
    const token = await editor.start();
    expect((await editor.poll(token)).status).toBe('TokenNotAuthorizedYet');

    const username = await loginAsMember();
    await openApproval(token);
    await expect.poll(() => page.getByText(/wants access to your/).textContent()).toContain(`(@${username})`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Access granted').waitFor();
    await page.getByText(/return to Unity/).waitFor();
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/sdk-oauth-granted.png', fullPage: true });

    const result = await editor.poll(token);
    expect(result).toMatchObject({ status: 'Ok', username, rank: 'User' });
    expect(result.token).toEqual(expect.any(String));
    const byBearer = await editor.user({ Authorization: `Bearer ${result.token}` });
    expect(byBearer.status).toBe(200);
    expect(await byBearer.json()).toMatchObject({ id: result.id, username });
    // compat/world-sdk.md: the access token is accepted as the session cookie too.
    const byCookie = await editor.user({ Cookie: `vrclink_session=${result.token}` });
    expect(byCookie.status).toBe(200);

    // The request is single use: neither a second poll nor a second approval gets anything; the page refuses
    // it before asking (no Allow to press).
    expect((await editor.poll(token)).status).toBe('Unauthorized');
    await openApproval(token);
    await page.getByText('This sign-in request was already used.').waitFor();
    expect(await page.getByText('Access granted').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });

  it("lets a server admin's editor list their servers and worlds, and download a world's data", async () => {
    const token = await editor.start();
    await browser.signIn('admin');
    await openApproval(token);
    await browser.page.getByRole('button', { name: 'Allow' }).click();
    await browser.page.getByText('Access granted').waitFor();
    const { token: access } = await editor.poll(token);
    expect(access).toEqual(expect.any(String));

    const guilds = (await (await editor.get('/api/guilds', access ?? '')).json()) as {
      id: string;
      name: string;
    }[];
    const hangout = guilds.find((g) => g.name === 'VRChat Hangout');
    expect(hangout).toBeDefined();
    const worlds = await editor.get(`/api/guilds/${hangout?.id}/worlds`, access ?? '');
    expect(worlds.status).toBe(200);
    const { worlds: list } = (await worlds.json()) as { worlds: { name: string; untrustedUrl: string }[] };
    const lobby = list.find((w) => w.name === 'Hangout Lobby');
    expect(lobby?.untrustedUrl).toMatch(/\/data\/v2\/[0-9a-f-]{36}$/);
    // What the world itself downloads: public, no credentials.
    const data = await fetch(lobby?.untrustedUrl.replace(/^https?:\/\/[^/]+/, browser.baseUrl) ?? '');
    expect(data.status).toBe(200);
    const doc = JSON.parse(await data.text());
    expect(doc).toMatchObject({ Version: 1, CustomData: 'Welcome to the VRChat Hangout!' });
    expect(doc.GroupUsers.Moderator).toEqual(['Bastian']);
  });

  it('goes home on Deny and refuses the request at once', async () => {
    const { page } = browser;
    const token = await editor.start();
    await loginAsMember();
    await openApproval(token);
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/sdk-oauth.png', fullPage: true });
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${browser.baseUrl}/`);
    await page.getByRole('heading', { name: 'Seamless Linking and Syncing for VRChat' }).waitFor();
    expect((await editor.poll(token)).status).toBe('Unauthorized');
  });

  it("shows the server's message for an unknown request", async () => {
    const { page } = browser;
    await loginAsMember();
    await openApproval('no-such-request-token');
    // Refused before asking: the server's sentence, and no Allow to press.
    await page.getByText('This sign-in request was not found.').waitFor();
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });
});

describe('VPM listing', () => {
  it('shows the repository address and the SDK package, and the listing and its zip are served', async () => {
    const { page } = browser;
    const response = await fetch(`${browser.baseUrl}/api/vpm/index.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const listing = (await response.json()) as VpmListing;
    expect(listing).toMatchObject({
      name: expect.any(String),
      id: expect.any(String),
      author: expect.any(String),
      url: `${browser.baseUrl}/api/vpm/index.json`,
    });
    const [packageId, { versions }] = Object.entries(listing.packages)[0];
    const [version, manifest] = Object.entries(versions)[0];
    expect(manifest).toMatchObject({
      name: packageId,
      version,
      displayName: expect.any(String),
      description: expect.any(String),
      url: expect.stringMatching(/\.zip$/),
      zipSHA256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const zip = await fetch(String(manifest.url));
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.zipSHA256);

    await loginAsMember();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.baseUrl });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'VPM Listing' }).click();
    await page.waitForURL(`${browser.baseUrl}/vpm-listing`);
    const address = page.getByLabel('Repository address');
    await address.waitFor();
    expect(await address.inputValue()).toBe(listing.url);
    expect(await page.getByRole('link', { name: 'Add to VCC' }).getAttribute('href')).toBe(
      `vcc://vpm/addRepo?url=${encodeURIComponent(listing.url)}`,
    );
    const card = page.getByRole('article', { name: String(manifest.displayName) });
    await card.getByRole('heading', { name: String(manifest.displayName) }).waitFor();
    await card.getByText(packageId, { exact: true }).waitFor();
    await card.getByText(`v${version}`).waitFor();
    await card.getByText(String(manifest.description)).waitFor();

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Repository address copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(listing.url);
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/vpm-listing.png', fullPage: true });
  });
});
