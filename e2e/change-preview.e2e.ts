import { seedGuildIds } from '@vrclink/simulator';
import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';

/**
 * A settings change that makes the bot give or take roles is previewed before it is saved. In the Hangout:
 * the keyboard moves through the Linked Users Role's list without choosing; Enter chooses Event Host; the
 * preview counts who would lose and who would get it (the sync's planner, asked by the server), the names
 * behind a click; Cancel leaves the setting and the simulated Discord as they were.
 */
const browser = useBrowser();
const simulatorUrl = inject('simulatorUrl');
const GUILD = seedGuildIds.hangout.id;
const EVENT_HOST = seedGuildIds.hangout.roles['Event Host'];

/** Every member's roles in the simulated Discord, sorted, as one comparable value. */
async function discordMembers(): Promise<string> {
  const response = await fetch(`${simulatorUrl}/control/discord/guilds/${GUILD}`);
  expect(response.status).toBe(200);
  const guild = (await response.json()) as { members: { userId: string; roles: string[] }[] };
  return JSON.stringify(guild.members.map((m) => [m.userId, [...m.roles].sort()]).sort());
}

describe('previewing a change of an auto role', () => {
  it('chooses with the keyboard, shows the counts and the names, and Cancel changes nothing', async () => {
    const { page } = browser;
    await browser.signIn('admin');
    await browser.goto('/server-settings');
    await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
    await page.waitForURL(/\/server-settings\/\d+\/discord$/);
    const select = page.getByRole('combobox', { name: 'Linked Users Role' });
    await select.waitFor();
    const before = await select.inputValue();
    expect(before).not.toBe('Event Host');
    const settingsBefore = await (await page.request.get(`/api/guilds/${GUILD}`)).json();
    const discordBefore = await discordMembers();
    const autoRoleChanges = async () =>
      (
        await (
          await page.request.get(`/api/groups/audit_log/${GUILD}?eventTypes=guild.auto_assign_roles`)
        ).json()
      ).totalCount as number;
    const changesBefore = await autoRoleChanges();
    const holders = (JSON.parse(discordBefore) as [string, string[]][]).filter(([, roles]) =>
      roles.includes(EVENT_HOST),
    ).length;

    // The arrow keys open the list and move through it; they choose nothing.
    await select.focus();
    const panel = page.getByRole('region', { name: 'Change preview' });
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('ArrowDown');
      const active = await select.getAttribute('aria-activedescendant');
      if (active && (await page.locator(`[id="${active}"]`).innerText()) === 'Event Host') break;
    }
    expect(await select.inputValue()).toBe(before);
    expect(await panel.count()).toBe(0);
    await page.keyboard.press('Enter');

    // The preview: the sync's own plan for the proposed setting, in words and counts.
    await panel
      .getByText(`Linked Users Role: ${before === 'None Selected' ? 'none' : before} → Event Host`)
      .waitFor();
    const sentence = panel.getByText(/^Event Host will be /);
    await sentence.waitFor();
    const words = await sentence.innerText();
    const taken = Number(/taken from (\d+)/.exec(words)?.[1] ?? 0);
    const given = Number(/given to (\d+)/.exec(words)?.[1] ?? 0);
    // Event Host is held only by the seeded holders, none of them linked in the demo; the linked members get it.
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThanOrEqual(holders);
    expect(given).toBeGreaterThan(0);
    await panel.getByRole('button', { name: 'Show members' }).click();
    await expect
      .poll(() => panel.getByRole('list', { name: 'Taken from' }).getByRole('listitem').count())
      .toBe(taken);
    expect(await panel.getByRole('list', { name: 'Given to' }).getByRole('listitem').count()).toBe(given);

    // Cancel: the select shows the saved role again; the server and the simulated Discord are unchanged.
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.waitFor({ state: 'detached' });
    expect(await select.inputValue()).toBe(before);
    expect(await (await page.request.get(`/api/guilds/${GUILD}`)).json()).toEqual(settingsBefore);
    expect(await autoRoleChanges()).toBe(changesBefore);
    expect(await discordMembers()).toBe(discordBefore);
  });
});
