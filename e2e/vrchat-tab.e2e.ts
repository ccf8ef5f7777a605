import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';
import { saveThroughPreview } from './previewed-change';

/**
 * A server admin in demo mode unlinks the Hangout's VRChat group and links Dance Club through the code in
 * its description (edited through the simulator's control API), then links the Hangout group back, since
 * other journeys (worlds) rely on it.
 */
const browser = useBrowser();
const simulatorUrl = inject('simulatorUrl');

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${simulatorUrl}/control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function groupNamed(name: string): Promise<{ id: string; description: string }> {
  const state = (await control('GET', '/vrchat/state')) as {
    groups: { id: string; name: string; description: string }[];
  };
  const group = state.groups.find((g) => g.name === name);
  if (!group) throw new Error(`no simulated group ${name}`);
  return group;
}

describe('VRChat tab', () => {
  it('unlinks the Hangout group, links Dance Club through its description, and links the Hangout back', async () => {
    const { page } = browser;
    const danceClub = await groupNamed('Dance Club');
    const hangout = await groupNamed('VRC Hangout Official');
    await browser.signIn('admin');
    await browser.goto('/server-settings');
    await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
    await page.getByRole('tab', { name: 'VRChat' }).click();
    await page.getByRole('heading', { name: 'VRC Hangout Official' }).waitFor();
    await page.getByText('Online Members').waitFor();

    const unlink = async () => {
      await page.getByRole('button', { name: 'Unlink Group' }).click();
      const dialog = page.getByRole('dialog', { name: 'Unlink Confirmation' });
      await dialog.getByText('Are you sure you want to unlink this group?').waitFor();
      await dialog.getByRole('button', { name: 'Unlink' }).click();
      await page.getByText('Group not Linked').waitFor();
    };
    const linked = page.getByText('Group successfully linked');
    const link = async (group: { id: string; description: string }, name: string) => {
      // The toast of an earlier link may still show (toasts last about 5 s): wait it out, so the one awaited
      // below is this link's.
      await linked.first().waitFor({ state: 'detached', timeout: 15_000 });
      await page.getByRole('textbox', { name: 'Group ID' }).fill(`https://vrchat.com/home/group/${group.id}`);
      await page.getByRole('button', { name: 'Start Linking Group' }).click();
      await page.getByRole('heading', { name }).waitFor();
      const code = (await page.getByLabel('Link code').textContent()) ?? '';
      expect(code).toMatch(/^VRCL-/);
      await control('PATCH', `/vrchat/groups/${group.id}`, {
        description: `${group.description} ${code}`.trim(),
      });
      await page.getByRole('button', { name: 'Check Code' }).click();
      const dialog = page.getByRole('dialog', { name: 'Code found in group description' });
      await dialog.getByRole('button', { name: 'Link Group' }).click();
      await linked.waitFor();
      await page.getByRole('heading', { name }).waitFor();
      await page.getByRole('button', { name: 'Unlink Group' }).waitFor();
      await control('PATCH', `/vrchat/groups/${group.id}`, { description: group.description });
    };

    await unlink();
    await link(danceClub, 'Dance Club');
    await page.getByRole('switch', { name: /^Enable Groups feature/ }).click();
    await saveThroughPreview(page);
    await page.waitForFunction(() =>
      Boolean(document.querySelector<HTMLInputElement>('input[role="switch"]')?.checked),
    );
    await unlink();
    await link(hangout, 'VRC Hangout Official');
  });
});
