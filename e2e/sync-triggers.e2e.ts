import { seedGuildIds, seedUserIds, vrchatSeed } from '@vrclink/simulator';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { control, linkAndVerify, signedInContext, xsrfHeaders } from './linking';
import { chooseAutoRole } from './previewed-change';

/**
 * What sets off a sync without Sync now (issue 18 item 7), in Furry Dance Club with no linked group: the
 * Discord tab offers Sync now and 'Last sync'; with the bot's role dragged below the Linked Users Role, a
 * linked member who loses that role does not get it back and the tab warns; dragging the bot's role back up
 * (a GUILD_ROLE_UPDATE) gives it back and clears the warning at once, not at the 15-minute timer; a ban (a
 * departure) runs a sync, so 'Last sync' moves on. Everything is undone.
 */
const browser = useBrowser();

const GUILD = seedGuildIds.danceClub.id;
const BOT_ROLE = seedGuildIds.danceClub.roles.VRCLink;
/** A Furry Dance Club member and a VRChat account that no other journey uses. */
const linker = { discordId: seedUserIds.humans[15]!, vrcId: vrchatSeed.userIds['Orion Drift']! };
/** Well under the 15-minute timer; a sync of a server without a group takes a few seconds. */
const TRIGGER_TIMEOUT_MS = 30_000;

interface SyncStatus {
  lastRunAt: string | null;
  activity: unknown;
  warnings: { message: string }[];
}

async function guildRoles(): Promise<{ id: string; position: number }[]> {
  return ((await control('GET', `/discord/guilds/${GUILD}`)) as { roles: { id: string; position: number }[] })
    .roles;
}

async function discordRoles(userId: string): Promise<string[]> {
  const guild = (await control('GET', `/discord/guilds/${GUILD}`)) as {
    members: { userId: string; roles: string[] }[];
  };
  return guild.members.find((m) => m.userId === userId)?.roles ?? [];
}

/** The sync status the Discord tab shows, as the signed-in owner's browser reads it. */
async function syncStatus(page: Page): Promise<SyncStatus> {
  const response = await page.request.get(`/api/guilds/${GUILD}/sync`);
  expect(response.status()).toBe(200);
  return (await response.json()) as SyncStatus;
}

async function openDiscordTab(page: Page): Promise<void> {
  await browser.goto('/server-settings');
  await page.getByRole('navigation', { name: 'Your servers' }).getByText('Furry Dance Club').click();
  await page.getByRole('tab', { name: 'Discord' }).click();
}

describe('sync triggers', () => {
  it("syncs when the bot's role moves and when a member is banned, without Sync now", async () => {
    const { page } = browser;
    const warning =
      'The bot cannot give or take the Discord role Trigger Linked: it needs Manage Roles and a role above it.';
    // Someone who will be banned; joining sets off a sync of its own, long done before the ban.
    const leaver = (await control('POST', `/discord/guilds/${GUILD}/members`, {
      username: 'trigger_leaver',
    })) as { userId: string };
    const role = (await control('POST', `/discord/guilds/${GUILD}/roles`, { name: 'Trigger Linked' })) as {
      id: string;
    };
    const botPosition = (await guildRoles()).find((r) => r.id === BOT_ROLE)!.position;
    let context: BrowserContext | undefined;
    try {
      context = await signedInContext(page, browser.baseUrl, linker.discordId);
      await linkAndVerify(context, linker.vrcId, control);

      // The Discord tab of a server without a linked group offers Sync now, with the last sync.
      await browser.signIn('admin');
      await openDiscordTab(page);
      await page.getByRole('button', { name: 'Sync now' }).waitFor();
      await page.getByText(/^Last sync:/).waitFor();

      // The Linked Users Role reaches the linked member.
      await chooseAutoRole(page, 'Linked Users Role', 'Trigger Linked');
      await expect
        .poll(() => discordRoles(linker.discordId), { timeout: TRIGGER_TIMEOUT_MS })
        .toContain(role.id);

      // The bot's role dragged to the bottom, then somebody takes the role away: the sync that follows
      // cannot give it back and says why on the tab (seen on the next look, nothing pressed).
      await control('PATCH', `/discord/guilds/${GUILD}/roles/${BOT_ROLE}`, { position: 1 });
      await control('DELETE', `/discord/guilds/${GUILD}/members/${linker.discordId}/roles/${role.id}`);
      await expect
        .poll(async () => (await syncStatus(page)).warnings.map((w) => w.message), {
          timeout: TRIGGER_TIMEOUT_MS,
        })
        .toContain(warning);
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByText(warning).waitFor();
      expect(await discordRoles(linker.discordId)).not.toContain(role.id);

      // Dragged back up: the role update alone sets off a sync, which gives the role and clears the warning.
      await control('PATCH', `/discord/guilds/${GUILD}/roles/${BOT_ROLE}`, { position: botPosition });
      await expect
        .poll(() => discordRoles(linker.discordId), { timeout: TRIGGER_TIMEOUT_MS })
        .toContain(role.id);
      await expect
        .poll(async () => (await syncStatus(page)).warnings.map((w) => w.message), {
          timeout: TRIGGER_TIMEOUT_MS,
        })
        .not.toContain(warning);
      await page.reload({ waitUntil: 'networkidle' });
      await page.getByText(/^Last sync:/).waitFor();
      expect(await page.getByText(warning).count()).toBe(0);

      // A ban is a departure: a sync follows, and 'Last sync' moves on.
      await expect
        .poll(async () => (await syncStatus(page)).activity, { timeout: TRIGGER_TIMEOUT_MS })
        .toBeNull();
      const before = (await syncStatus(page)).lastRunAt;
      expect(before).not.toBeNull();
      await control('POST', `/discord/guilds/${GUILD}/members/${leaver.userId}/ban`);
      await expect
        .poll(async () => (await syncStatus(page)).lastRunAt, { timeout: TRIGGER_TIMEOUT_MS })
        .not.toBe(before);
      const after = (await syncStatus(page)).lastRunAt!;
      expect(Date.parse(after)).toBeGreaterThan(Date.parse(before!));
      await page.reload({ waitUntil: 'networkidle' });
      await page.locator(`time[datetime="${after}"]`).waitFor();

      await chooseAutoRole(page, 'Linked Users Role', 'None Selected');
    } finally {
      await control('PATCH', `/discord/guilds/${GUILD}/roles/${BOT_ROLE}`, { position: botPosition });
      if (context) {
        await context.request.post('/api/users/unlink', { headers: await xsrfHeaders(context) });
        await context.close();
      }
      await control('DELETE', `/discord/guilds/${GUILD}/roles/${role.id}`);
    }
  }, 120_000);
});
