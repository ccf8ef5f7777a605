import { vrchatSeed } from '@vrclink/simulator';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeFindings, cutOff, type Finding, settled, sidewaysOverflow } from './axe';
import { ADMIN_DISCORD_ID } from './browser';
import { control, signedInContext, xsrfHeaders } from './linking';
import { png } from './png';

/**
 * WCAG 2.2 AA through axe-core: every page and dialog as each demo persona, on a desktop (1280 px) and a
 * small phone (320 px, also 1280 px at 400 % zoom): no critical and no serious finding, no page wider than the window, and focus back on
 * the button that opened a dialog once it closes. One browser, one signed-in context per persona.
 */
const baseUrl = inject('baseUrl');
const HANGOUT = '1300000000000000001';
const DANCE_CLUB = '1300000000000000002';
const PERSONAS = {
  anonymous: null,
  member: '1200000000000000008', // in the Hangout, manages no server
  owner: '1200000000000000005', // owns the Furry Dance Club, not a platform admin
  admin: ADMIN_DISCORD_ID, // platform admin, owns the Hangout
} as const;
type Persona = keyof typeof PERSONAS;
// 320 px: the width WCAG 1.4.10 (Reflow) names; a page that fits it fits any larger phone. The phone first: a
// page is loaded once, at the first width, and checked again after the window grows (as a phone turned sideways).
const WIDTHS = [320, 1280] as const;

interface Check {
  path: string;
  /** Opens a dialog: the button to press. Without it the page itself is checked. */
  dialog?: (page: Page) => Locator;
  /** Steps before the check: reaching a page whose address is known only at run time. */
  prepare?: (page: Page) => Promise<void>;
  /**
   * Steps inside the opened dialog before it is checked (what it turns into once filled in); `checkHere` checks
   * the dialog as it is at a step on the way, named by `state`.
   */
  within?: (page: Page, checkHere: (state: string) => Promise<void>) => Promise<void>;
  /** Only at this width (the phone menu exists only on a phone). */
  width?: number;
  /** Steps once the check is done, passed or not (undoing what it changed), as the persona. */
  after?: (context: BrowserContext) => Promise<unknown>;
  /** Alone, after the other checks: it changes platform state another check would see. */
  serial?: boolean;
}

const button = (name: string | RegExp) => (page: Page) => page.getByRole('button', { name }).first();
const tab = (server: string, name: string) => `/server-settings/${server}/${name}`;
const serverChecks = (server: string): Check[] => [
  { path: tab(server, 'discord') },
  { path: tab(server, 'discord'), dialog: button('Setup') },
  { path: tab(server, 'vrchat') },
  { path: tab(server, 'members') },
  { path: tab(server, 'members'), dialog: button(/^Details of /) },
  { path: tab(server, 'management') },
  { path: tab(server, 'management/audit-log') },
  { path: tab(server, 'management/permissions') },
  { path: tab(server, 'management/api-keys') },
  { path: tab(server, 'worlds') },
];
const CHECKS: Record<Persona, Check[]> = {
  anonymous: [
    { path: '/' },
    { path: '/', dialog: button('Open navigation'), width: 320 },
    { path: '/tos' },
    { path: '/privacy-policy' },
    { path: '/vpm-listing' },
    { path: '/profile' },
    { path: '/discord_auth' },
    { path: '/logout' },
    { path: '/no-such-page' },
  ],
  member: [
    { path: '/profile' },
    { path: '/profile', dialog: button('Link Account') },
    // The Link Account steps: Confirm (1); the conflict (101) and its failed verify; once linked, the code
    // (102) and 'Account Ownership Verified' (2). The last links an account no other journey uses, and unlinks it.
    {
      path: '/profile',
      dialog: button('Link Account'),
      within: async (page) => {
        await pickInLinkDialog(page, 'Iris Nova');
        await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).waitFor();
      },
    },
    {
      path: '/profile',
      dialog: button('Link Account'),
      within: async (page) => {
        await pickInLinkDialog(page, 'Bastian'); // linked to another Discord account by the demo seed
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: 'Verify Ownership' }).click();
        await dialog.getByText('Code not found, try again later').waitFor();
      },
    },
    {
      // Checked twice in one pass (linking takes seconds of VRChat calls): with the code shown, then verified.
      path: '/profile',
      dialog: button('Link Account'),
      within: async (page, checkHere) => {
        const code = await linkInDialog(page, 'Jasper Vale');
        await checkHere('with the verification code');
        await control('PATCH', `/vrchat/users/${vrchatSeed.userIds['Jasper Vale']}`, { bio: code });
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('button', { name: 'Verify Account' }).click();
        await dialog.getByRole('heading', { name: 'Account Ownership Verified' }).waitFor();
      },
      after: async (context) => {
        await unlink(context);
        await control('PATCH', `/vrchat/users/${vrchatSeed.userIds['Jasper Vale']}`, { bio: '' });
      },
      serial: true,
    },
    { path: '/profile', dialog: button('Delete My Account') },
    { path: '/profile', dialog: button('Open navigation'), width: 320 },
    { path: '/server-settings' },
    { path: '/sdk-oauth' },
  ],
  owner: [
    { path: '/server-settings' },
    ...serverChecks(DANCE_CLUB),
    // Dance Club's group is not linked (sync.e2e links it and unlinks it at its end): Check Code without the
    // code in the group's description, then with it. One at a time: both change what the group's description holds.
    {
      path: tab(DANCE_CLUB, 'vrchat'),
      prepare: async (page) => void (await startDanceClubLink(page)),
      dialog: button('Check Code'),
      within: async (page) => {
        await page.getByRole('dialog', { name: 'Code not found in group description' }).waitFor();
      },
      serial: true,
    },
    {
      path: tab(DANCE_CLUB, 'vrchat'),
      prepare: async (page) => {
        const code = await startDanceClubLink(page);
        await control('PATCH', `/vrchat/groups/${DANCE_CLUB_GROUP}`, {
          description: `${description} ${code}`,
        });
      },
      dialog: button('Check Code'),
      within: async (page) => {
        await page.getByRole('dialog', { name: 'Code found in group description' }).waitFor();
      },
      after: () => control('PATCH', `/vrchat/groups/${DANCE_CLUB_GROUP}`, { description }),
      serial: true,
    },
  ],
  admin: [
    { path: '/admin' },
    // Setup Guests (the Hangout gives the admin guest slots), with its add-guest panel open.
    {
      path: '/profile',
      dialog: button('Setup Guests'),
      within: async (page) => {
        const dialog = page.getByRole('dialog', { name: 'VRChat Hangout' });
        await dialog.getByText(/^Used \d+\/\d+/).waitFor();
        await dialog.getByRole('button', { name: 'Add Guest' }).click();
        await dialog.getByRole('region', { name: 'Add guest' }).waitFor();
      },
    },
    ...serverChecks(HANGOUT),
    // The Hangout has its group linked: its dialogs, and a world's preview.
    { path: tab(HANGOUT, 'vrchat'), dialog: button('Discord to Group Roles setup') },
    { path: tab(HANGOUT, 'vrchat'), dialog: button('Group to Discord Roles setup') },
    { path: tab(HANGOUT, 'vrchat'), dialog: button('View Audit Log') },
    { path: tab(HANGOUT, 'worlds'), dialog: button('Preview') },
    // The shared confirmation (ConfirmDialog), closed with Escape: nothing is unlinked or unlocked.
    { path: tab(HANGOUT, 'vrchat'), dialog: button('Unlink Group') },
    { path: tab(HANGOUT, 'worlds'), dialog: button('Unlock world') },
    {
      path: tab(HANGOUT, 'management/api-keys'),
      dialog: button('Create API Key'),
    },
    {
      path: tab(HANGOUT, 'management/permissions'),
      dialog: button('Add Admin'),
    },
    {
      path: tab(HANGOUT, 'management/api-keys'),
      dialog: button('Create API Key'),
      // What the dialog shows once the key is made: the token, once.
      within: async (page) => {
        const form = page.getByRole('dialog', { name: 'Create API Key' });
        await form.getByRole('textbox', { name: 'Name' }).fill('axe check');
        await form.getByRole('checkbox', { name: 'ViewWorlds' }).check();
        await form.getByRole('button', { name: 'Create' }).click();
        await page.getByRole('dialog', { name: 'API Key Created' }).waitFor();
      },
    },
    {
      // World Atlases, from the seeded world's Images page (the contact e-mail stored first, as the page asks).
      path: tab(HANGOUT, 'worlds'),
      prepare: async (page) => {
        await storeContactEmail(page);
        await page
          .getByRole('article', { name: 'Hangout Lobby' })
          .getByRole('button', { name: 'Images' })
          .click();
        await page.getByRole('button', { name: 'View World Atlases' }).waitFor();
      },
      dialog: button('View World Atlases'),
    },
    {
      // An image's editor, on an image this check uploads (a second upload of the same bytes answers 200).
      path: tab(HANGOUT, 'worlds'),
      prepare: async (page) => {
        const headers = await storeContactEmail(page);
        const uploaded = await page.request.post(`/api/world_images/${HANGOUT}/upload`, {
          headers,
          multipart: { file: { name: 'axe.png', mimeType: 'image/png', buffer: png(40, 20, [90, 160, 90]) } },
        });
        expect([200, 201]).toContain(uploaded.status());
        await page
          .getByRole('article', { name: 'Hangout Lobby' })
          .getByRole('button', { name: 'Images' })
          .click();
        await page.getByRole('button', { name: 'Edit axe.png' }).waitFor();
      },
      dialog: button('Edit axe.png'),
    },
  ],
};

const DANCE_CLUB_GROUP = vrchatSeed.groupIds.danceClub;
/** Dance Club's description as seeded (what the Code found check puts back). */
let description = '';

/** Starts linking Dance Club's group on its server's VRChat tab; answers the link code shown. */
async function startDanceClubLink(page: Page): Promise<string> {
  await page.getByRole('textbox', { name: 'Group ID' }).fill(DANCE_CLUB_GROUP);
  await page.getByRole('button', { name: 'Start Linking Group' }).click();
  return (await page.getByLabel('Link code').textContent()) ?? '';
}

/** In the open Link Account dialog: searches for that VRChat account and presses its Link. */
async function pickInLinkDialog(page: Page, displayName: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('VRChat account').fill(displayName);
  await dialog.getByRole('listitem', { name: displayName }).getByRole('button', { name: 'Link' }).click();
}

/** Links that VRChat account through the open dialog (not yet verified); answers the verification code shown. */
async function linkInDialog(page: Page, displayName: string): Promise<string> {
  await pickInLinkDialog(page, displayName);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.getByRole('button', { name: 'Verify Account' }).waitFor();
  return ((await dialog.locator('[aria-labelledby="verification-code-label"]').textContent()) ?? '').trim();
}

async function unlink(context: BrowserContext): Promise<void> {
  const response = await context.request.post('/api/users/unlink', { headers: await xsrfHeaders(context) });
  expect(response.status()).toBe(200);
}

/** World Images asks for the server's contact e-mail first: store one. Answers the XSRF header it used. */
async function storeContactEmail(page: Page): Promise<Record<string, string>> {
  const token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'X-XSRF-TOKEN': decodeURIComponent(token) };
  const saved = await page.request.post(`/api/guilds/${HANGOUT}/contact`, {
    headers,
    data: { email: 'owner@example.com' },
  });
  expect(saved.status()).toBe(200);
  return headers;
}

let browser: Browser;
const contexts = new Map<Persona, BrowserContext>();

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic'],
  });
  const state = (await control('GET', '/vrchat/state')) as { groups: { id: string; description: string }[] };
  description = state.groups.find((g) => g.id === DANCE_CLUB_GROUP)?.description ?? '';
  const anonymous = await browser.newContext({ baseURL: baseUrl });
  contexts.set('anonymous', anonymous);
  const starter = await anonymous.newPage();
  for (const [persona, id] of Object.entries(PERSONAS)) {
    if (id) contexts.set(persona as Persona, await signedInContext(starter, baseUrl, id));
  }
  await starter.close();
});
afterAll(async () => {
  await browser?.close();
});

interface Outcome {
  findings: Finding[];
  overflow: string[];
  focusLost: string[];
}

/** The widths a check runs at, in the order of WIDTHS. */
const widthsOf = (check: Check): number[] => (check.width ? [check.width] : [...WIDTHS]);

/**
 * The checks in the order they run, in batches that share one page load: those of the same path with no steps of
 * their own (the page, then each dialog it opens, each closed again with Escape before the next). A check with
 * steps (prepare, within, after) changes what the page shows, so it loads the page alone. Sharing saves
 * about a third of the page loads, most of this file's time.
 */
function batches(checks: Check[]): Check[][] {
  const out: Check[][] = [];
  const byPath = new Map<string, Check[]>();
  for (const check of checks) {
    if (check.prepare || check.within || check.after) {
      out.push([check]);
      continue;
    }
    const batch = byPath.get(check.path);
    if (batch) batch.push(check);
    else {
      byPath.set(check.path, [check]);
      out.push(byPath.get(check.path)!);
    }
  }
  return out;
}

/**
 * Opens the batch's page once, at the first of its widths, and checks it at each width in turn, resizing the window
 * between the checks. At each width, each check of the batch for that width: the page itself, or a dialog opened
 * (its `within` steps only at its first width, the phone, where what they show is most likely to overflow), checked,
 * closed with Escape, and focus must be back on its button.
 */
async function run(context: BrowserContext, batch: Check[], outcome: Outcome) {
  const widths = WIDTHS.filter((w) => batch.some((check) => widthsOf(check).includes(w)));
  const labelOf = (check: Check) => `${check.path}${check.dialog ? ' (dialog)' : ''}`;
  let where = `${labelOf(batch[0]!)} at ${widths[0]} px`;
  const page = await context.newPage();
  const checkNow = async () => {
    const overflow = await sidewaysOverflow(page);
    if (overflow > 0) outcome.overflow.push(`${where}: ${overflow} px too wide`);
    for (const text of await cutOff(page)) outcome.overflow.push(`${where}: runs off the window: ${text}`);
    outcome.findings.push(...(await axeFindings(page, where)));
  };
  try {
    await page.setViewportSize({ width: widths[0]!, height: 800 });
    await page.goto(batch[0]!.path, { waitUntil: 'networkidle' });
    await page.locator('[aria-label^="Loading"]').first().waitFor({ state: 'detached' });
    const prepare = batch[0]!.prepare;
    if (batch[0]!.dialog && prepare) await prepare(page);
    for (const [i, width] of widths.entries()) {
      if (i > 0) {
        await page.setViewportSize({ width, height: 800 });
        // The layout answers the new width on the next frames (a phone's cards become a table): let it render.
        await page.evaluate(
          () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
        );
        await settled(page);
      }
      for (const check of batch.filter((c) => widthsOf(c).includes(width))) {
        where = `${labelOf(check)} at ${width} px`;
        if (!check.dialog) {
          await checkNow();
          continue;
        }
        const overflow = await sidewaysOverflow(page);
        if (overflow > 0) outcome.overflow.push(`${where}: ${overflow} px too wide (behind the dialog)`);
        // The element itself, not the locator: the phone menu's button changes its name once open.
        const opener = await check.dialog(page).elementHandle();
        await opener?.click();
        const dialog = page.getByRole('dialog');
        await dialog.first().waitFor();
        // Mantine names the dialog (aria-labelledby) in an effect after it mounts; a dialog never named is still
        // reported, by axe, once this wait gives up.
        await page
          .locator('[role="dialog"][aria-labelledby], [role="dialog"][aria-label]')
          .first()
          .waitFor({ timeout: 15_000 })
          .catch(() => {});
        if (width === widthsOf(check)[0] && check.within) {
          const at = where;
          await check.within(page, async (state) => {
            where = `${at}, ${state}`;
            await checkNow();
            where = at;
          });
        }
        await checkNow();
        await page.keyboard.press('Escape');
        await dialog
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => dialog.first().waitFor({ state: 'hidden' }));
        await settled(page);
        const back = await page
          .waitForFunction((el) => document.activeElement === el, opener, { timeout: 15_000 })
          .then(() => true)
          .catch(() => false);
        if (!back) outcome.focusLost.push(where);
      }
    }
  } catch (error) {
    outcome.findings.push({ where, rule: 'could not check', impact: 'critical', targets: [String(error)] });
  } finally {
    await page.close();
    for (const check of batch) await check.after?.(context);
  }
}

describe('accessibility (axe-core, WCAG 2.2 AA)', () => {
  it.each(Object.keys(PERSONAS) as Persona[])(
    'as %s: no critical or serious finding on any page or dialog, none wider than the window',
    async (persona) => {
      const outcome: Outcome = { findings: [], overflow: [], focusLost: [] };
      const context = contexts.get(persona)!;
      const runs = (serial: boolean) =>
        batches(CHECKS[persona].filter((check) => !!check.serial === serial)).map(
          (batch) => () => run(context, batch, outcome),
        );
      // Two pages at a time: the machine has two cores, shared with the server.
      const queue = runs(false);
      await Promise.all(
        [0, 1].map(async () => {
          for (let next = queue.shift(); next; next = queue.shift()) await next();
        }),
      );
      for (const next of runs(true)) await next();
      expect(outcome.findings).toEqual([]);
      expect(outcome.focusLost, 'dialogs that did not give focus back to their button').toEqual([]);
      expect(outcome.overflow, 'pages that scroll sideways').toEqual([]);
    },
    // Up to 26 pages and dialogs each, at two widths; a loaded 2-core machine needs minutes.
    600_000,
  );
});
