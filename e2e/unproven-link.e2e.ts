import { seedGuildIds, seedUserIds, vrchatSeed } from '@vrclink/simulator';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { control, signedInContext, xsrfHeaders } from './linking';

/**
 * Proof before power (issue #29): a Hangout member links a stranger's VRChat account without proving it is
 * theirs (the stranger is 18+ on VRChat) and holds a Discord role mapped to the Hangout's group. After a sync
 * the stranger is not invited (Membership); once in the group on their own they are not given the mapped group
 * role (GrantRolePermanent) nor removed (NoMembership); the Members tab does not show the member as 18+.
 * Everything is undone at the end.
 */
const browser = useBrowser();

const GUILD = seedGuildIds.hangout.id;
const GROUP = vrchatSeed.groupIds.hangout;
const EVENT_HOST = vrchatSeed.roleIds.hangout.eventHost;
/** A Hangout member and a VRChat account (in no Hangout group) that no other journey uses. */
const claimant = seedUserIds.humans[22]!;
const stranger = vrchatSeed.userIds['Dusk Walker']!;
/** A sync reads the group about seven times through the pacer: on a loaded machine allow well beyond that. */
const SYNC_TIMEOUT_MS = 60_000;

interface Membership {
  userId: string;
  status: string;
  roleIds: string[];
}

async function strangerInGroup(): Promise<Membership | undefined> {
  const group = (await control('GET', `/vrchat/groups/${GROUP}`)) as { memberships: Membership[] };
  return group.memberships.find((m) => m.userId === stranger);
}

/** The admin's browser calls the API as the web app does (session cookie and XSRF header). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown) {
  const response = await page.request.fetch(path, {
    method,
    data,
    headers: method === 'GET' ? {} : await xsrfHeaders(page.context()),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return response.status() === 204 ? undefined : await response.json();
}

/**
 * A whole sync that starts after the changes made so far: once no sync runs (one the changes set off may), the
 * one asked for now is the next to finish.
 */
async function syncNow(page: Page): Promise<void> {
  const status = async () =>
    (await api(page, 'GET', `/api/guilds/${GUILD}/sync`)) as { lastRunAt: string | null; activity: unknown };
  await expect.poll(async () => (await status()).activity, { timeout: SYNC_TIMEOUT_MS }).toBeNull();
  const before = (await status()).lastRunAt;
  await api(page, 'POST', `/api/guilds/${GUILD}/sync`);
  await expect
    .poll(
      async () => {
        const now = await status();
        return now.activity === null && now.lastRunAt !== before;
      },
      { timeout: SYNC_TIMEOUT_MS },
    )
    .toBe(true);
}

describe('an unproven link', () => {
  it("never lets a member's Discord roles act on the stranger's account, nor shows them as 18+", async () => {
    const { page } = browser;
    const user = (await control('GET', `/vrchat/users/${stranger}`)) as {
      ageVerificationStatus: string;
      ageVerified: boolean;
    };
    const role = (await control('POST', `/discord/guilds/${GUILD}/roles`, { name: 'Proof Crew' })) as {
      id: string;
    };
    const mappings: string[] = [];
    let context: BrowserContext | undefined;
    try {
      // The stranger is 18+ on VRChat; the member links the account (Success: linked, not verified).
      await control('PATCH', `/vrchat/users/${stranger}`, {
        ageVerificationStatus: '18+',
        ageVerified: true,
      });
      context = await signedInContext(page, browser.baseUrl, claimant);
      const linked = await context.request.post(`/api/users/link?vrcId=${stranger}`, {
        headers: await xsrfHeaders(context),
      });
      expect(linked.status()).toBe(200);
      expect(((await linked.json()) as { status: string }).status).toBe('Success');
      await control('PUT', `/discord/guilds/${GUILD}/members/${claimant}/roles/${role.id}`);

      // The admin maps the role to membership and to the group role Event Host, and turns the Groups feature on.
      await browser.signIn('admin');
      const map = async (action: string, groupRoleId: string | null) => {
        const { id } = (await api(page, 'POST', `/api/guilds/${GUILD}/guild_roles`)) as { id: string };
        mappings.push(id);
        await api(page, 'PUT', `/api/guilds/${GUILD}/guild_roles`, {
          id,
          discordRoleId: role.id,
          groupRoleId,
          action,
        });
        return id;
      };
      const membership = await map('Membership', null);
      await map('GrantRolePermanent', EVENT_HOST);
      await api(page, 'POST', `/api/groups/${GUILD}`, { enabled: true });

      // Not invited.
      await syncNow(page);
      expect(await strangerInGroup()).toBeUndefined();

      // In the group on their own: not given the mapped role.
      await control('POST', `/vrchat/groups/${GROUP}/members/${stranger}`, { roleIds: [] });
      await syncNow(page);
      expect(await strangerInGroup()).toMatchObject({ status: 'member', roleIds: [] });

      // The role now keeps its holders out of the group: the stranger is not removed.
      await api(page, 'PUT', `/api/guilds/${GUILD}/guild_roles`, { id: membership, action: 'NoMembership' });
      await syncNow(page);
      expect(await strangerInGroup()).toMatchObject({ status: 'member', roleIds: [] });

      // The Members tab: linked, unverified, never 18+.
      const { members } = (await control('GET', `/discord/guilds/${GUILD}`)) as {
        members: { userId: string; username: string }[];
      };
      const username = members.find((m) => m.userId === claimant)!.username;
      await browser.goto(`/server-settings/${GUILD}/members`);
      await page.getByText('Discord Member Search').waitFor();
      await page.getByRole('textbox', { name: 'Search' }).fill(username);
      const row = page.getByRole('row', { name: username, exact: true });
      await row.getByText('Dusk Walker').waitFor();
      await row.getByText('Unverified').waitFor();
      expect(await row.getByText('18+').count()).toBe(0);
      await row.getByRole('button', { name: 'More' }).click();
      await page
        .getByRole('region', { name: `Link details of ${username}` })
        .getByText('Not verified (ownership not proven)')
        .waitFor();
    } finally {
      if (browser.page.url().startsWith(browser.baseUrl)) {
        for (const id of mappings)
          await page.request.delete(`/api/guilds/${GUILD}/guild_roles/${id}`, {
            headers: await xsrfHeaders(page.context()),
          });
        await page.request.post(`/api/groups/${GUILD}`, {
          data: { enabled: false },
          headers: await xsrfHeaders(page.context()),
        });
      }
      if (await strangerInGroup()) await control('DELETE', `/vrchat/groups/${GROUP}/members/${stranger}`);
      if (context) {
        await context.request.post('/api/users/unlink', { headers: await xsrfHeaders(context) });
        await context.close();
      }
      await control('DELETE', `/discord/guilds/${GUILD}/roles/${role.id}`);
      await control('PATCH', `/vrchat/users/${stranger}`, {
        ageVerificationStatus: user.ageVerificationStatus,
        ageVerified: user.ageVerified,
      });
    }
  }, 300_000);
});
