import { seedGuildIds } from '@vrclink/simulator';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { control } from './linking';
import { chooseAutoRole } from './previewed-change';

/**
 * Logging to Discord and the setup doctor in the Hangout, each on things of its own (a new channel and a new
 * role, deleted at the end; logging and the 18+ Verified Role switched off again): configure logging, make a
 * change, see the embed in the simulated channel; the Check setup panel flags a configured role moved above
 * the bot's role and clears once it is moved back.
 */
const browser = useBrowser();
const GUILD = seedGuildIds.hangout.id;
const BOT_ROLE = seedGuildIds.hangout.roles.VRCLink;
const EFFECT_TIMEOUT_MS = 30_000;

interface Embed {
  title: string;
  description: string;
}

async function embeds(channelId: string): Promise<Embed[]> {
  const list = (await control('GET', `/discord/channels/${channelId}/messages`)) as { embeds: Embed[] }[];
  return list.flatMap((m) => m.embeds);
}

async function rolePosition(roleId: string): Promise<number> {
  const guild = (await control('GET', `/discord/guilds/${GUILD}`)) as {
    roles: { id: string; position: number }[];
  };
  return guild.roles.find((r) => r.id === roleId)!.position;
}

async function openTab(page: Page, tab: 'Discord' | 'Management'): Promise<void> {
  await browser.goto('/server-settings');
  await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
  await page.getByRole('tab', { name: tab }).click();
}

async function apiAsPage(page: Page, method: 'PATCH' | 'POST', url: string, data: object): Promise<void> {
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const res = await page.request.fetch(url, {
    method,
    data,
    headers: { 'X-XSRF-TOKEN': decodeURIComponent(token) },
  });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBe(200);
}

describe('Logging to Discord and the setup doctor', () => {
  it('posts a change into the chosen channel, and flags a role moved above the bot until moved back', async () => {
    const { page } = browser;
    const channel = (await control('POST', `/discord/guilds/${GUILD}/channels`, { name: 'e2e-log' })) as {
      id: string;
    };
    const role = (await control('POST', `/discord/guilds/${GUILD}/roles`, { name: 'E2E Doctor' })) as {
      id: string;
    };
    await browser.signIn('admin');
    try {
      // Configure: the new channel, settings changes.
      await openTab(page, 'Management');
      // The Management tab opens on its first section, Logging to Discord.
      const section = page.getByRole('region', { name: 'Logging to Discord' });
      await section.getByRole('combobox', { name: 'Channel' }).selectOption({ label: '#e2e-log' });
      await section.getByRole('checkbox', { name: 'Settings changes' }).check();
      await section.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Logging settings saved.').waitFor();

      // Make a change: the 18+ Verified Role; its embed arrives in the simulated channel.
      await openTab(page, 'Discord');
      await chooseAutoRole(page, '18+ Verified Role', 'E2E Doctor');
      await expect
        .poll(async () => (await embeds(channel.id)).map((e) => `${e.title}: ${e.description}`), {
          timeout: EFFECT_TIMEOUT_MS,
          interval: 500,
        })
        .toContain('Settings changes: Changed auto-assigned roles · 18+ Verified Role: none → E2E Doctor');

      // The setup doctor: nothing wrong, then the role above the bot's is flagged, then cleared.
      const panel = page.getByRole('region', { name: 'Check setup' });
      await panel.getByText(/Nothing stops the bot here/).waitFor();
      await control('PATCH', `/discord/guilds/${GUILD}/roles/${role.id}`, {
        position: await rolePosition(BOT_ROLE),
      });
      const flagged = panel.getByText("The bot's role must be above E2E Doctor to manage it.");
      await expect
        .poll(
          async () => {
            await panel.getByRole('button', { name: 'Check again' }).click();
            return flagged.isVisible();
          },
          { timeout: EFFECT_TIMEOUT_MS, interval: 1000 },
        )
        .toBe(true);
      await panel.getByText(/drag the bot's role \(VRCLink\) above E2E Doctor/).waitFor();
      await control('PATCH', `/discord/guilds/${GUILD}/roles/${role.id}`, { position: 1 });
      await expect
        .poll(
          async () => {
            await panel.getByRole('button', { name: 'Check again' }).click();
            return panel.getByText(/Nothing stops the bot here/).isVisible();
          },
          { timeout: EFFECT_TIMEOUT_MS, interval: 1000 },
        )
        .toBe(true);
    } finally {
      await apiAsPage(page, 'PATCH', `/api/guilds/logging/${GUILD}/config`, {
        channelId: null,
        eventTypes: [],
      });
      await apiAsPage(page, 'POST', `/api/guilds/${GUILD}`, {
        autoAssignRoles: { ageVerifiedPlus18RoleId: null },
      });
      await control('DELETE', `/discord/guilds/${GUILD}/roles/${role.id}`);
      await control('DELETE', `/discord/channels/${channel.id}`);
    }
  });
});
