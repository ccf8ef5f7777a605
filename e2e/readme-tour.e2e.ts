import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, findOnConsentPage } from './browser';
import { type DemoServer, repoRoot, startDemoServer } from './demo-server';

/**
 * The README's five-minute tour, done as it is written, on a demo of its own started as `npm start` starts it
 * (a fresh data folder, the strict simulators, the real pace): the tour promises what a newcomer sees right
 * after the first start, so it cannot share the journeys' server, whose state they change.
 *
 * The steps come from the README: each step's **bold** names are pressed or looked for in the README's order
 * (`next` fails when the README names something else next), its quoted and `code` words are checked to be in
 * the step (`says`), and its curl commands are run as written, with the printed addresses of this demo.
 */
const README = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const tour = README.slice(README.indexOf('## A five-minute tour'), README.indexOf('## Reset the demo'));
/** The tour's numbered steps, each from its number to the next. */
const steps = tour.split(/\n(?=\d\. \*\*)/).slice(1);

const SHOWN_PORT = 'http://127.0.0.1:3000';
const SHOWN_SIMULATOR = 'http://127.0.0.1:4010';
const HANGOUT = '1300000000000000001';
const EFFECT_TIMEOUT_MS = 120_000;

/** A step read in order: its title, its bold names one at a time, its words, its commands. */
function step(number: number) {
  const text = steps[number - 1] ?? '';
  const bold = [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
  // The prose without the commands, on one line (the README wraps its lines).
  const prose = text.replace(/```bash[\s\S]*?```/g, '').replace(/\s+/g, ' ');
  let at = 1; // bold[0] is the step's title
  return {
    title: bold[0] ?? `step ${number}`,
    /** The step's next bold name, which must be `name`: the tour presses what the README says, in its order. */
    next(name: string): string {
      expect(bold[at], `step ${number}'s next bold name after ${bold.slice(0, at).join(', ')}`).toBe(name);
      at += 1;
      return name;
    },
    /** Words the step says, checked to be in it as written. */
    says(words: string): string {
      expect(prose, `step ${number} says`).toContain(words);
      return words;
    },
    /** Every bold name of the step was followed. */
    done() {
      expect(bold.slice(at), `step ${number}'s names the test did not follow`).toEqual([]);
    },
    /** The step's `bash` blocks, as written. */
    commands: [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]),
  };
}

let demo: DemoServer;
let browser: Browser;
let page: Page;

/** The README's address of a page or API, on this demo's ports. */
const here = (text: string) =>
  text.replaceAll(SHOWN_PORT, demo.baseUrl).replaceAll(SHOWN_SIMULATOR, demo.simulatorUrl);

/** Runs a command of the README as written (on this demo's ports) and answers its JSON output. */
function run(command: string): unknown {
  const out = execFileSync('bash', ['-c', here(command)], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out);
}

/**
 * Runs the README's curl that stands for a member's slash command and answers the bot's answer, read the
 * README's way (`curl -s http://127.0.0.1:4010/control/discord/interactions/<id>`). Discord gives up on an
 * interaction the bot has not answered within 3 s and the member types the command again: so does this, when
 * the loaded machine made the bot late.
 */
async function botAnswer(command: string): Promise<string> {
  const deadline = Date.now() + EFFECT_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    const sent = run(command) as { interactionId?: string };
    last = JSON.stringify(sent);
    if (sent.interactionId) {
      const read = `curl -s ${SHOWN_SIMULATOR}/control/discord/interactions/${sent.interactionId}`;
      for (const until = Date.now() + 10_000; Date.now() < until; ) {
        const view = run(read) as { callback?: { data?: { content?: string } } };
        last = JSON.stringify(view);
        const content = view.callback?.data?.content;
        if (content) return content;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } else await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`The bot did not answer: ${last}`);
}

/** Each step at the real pace on a loaded machine: minutes, not the journeys' one. */
const STEP_TIMEOUT_MS = 300_000;

beforeAll(async () => {
  // As a person's shell runs `npm start`: no test settings (the runner's NODE_ENV=test taken out).
  const { NODE_ENV: _testRunner, ...env } = process.env;
  demo = await startDemoServer({ ...env, LOG_LEVEL: 'warn' });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL: demo.baseUrl, viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  demo?.stop();
});

describe("the README's five-minute tour, as written", () => {
  it('npm start prints the address to open', async () => {
    expect(README).toContain(`prints \`Listening on ${SHOWN_PORT}\``);
    await expect.poll(() => demo.output(), { timeout: 30_000 }).toContain(`Listening on ${demo.baseUrl}`);
    expect(steps).toHaveLength(5);
  });

  it(
    `1. ${step(1).title}`,
    async () => {
      const s = step(1);
      const who = s.says('Sign in as `glitchwolf`').match(/`(.+)`/)![1];
      await page.goto('/', { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'Login through Discord' }).click();
      await page.waitForURL(/\/oauth2\/authorize/);
      await page.getByRole('radio', { name: who, exact: true }).check();
      await page.getByRole('button', { name: 'Authorize' }).click();
      await page.waitForURL(`${demo.baseUrl}/profile`);
      await page.getByRole('heading', { name: s.next('Profile') }).waitFor();
      await page.getByRole('button', { name: s.next('Link Account') }).click();
      const dialog = page.getByRole('dialog', { name: 'Link Account' });
      const account = s.says('search `Orion Drift`').match(/`(.+)`/)![1];
      await dialog.getByLabel('VRChat account').fill(account);
      const result = dialog.getByRole('listitem', { name: account });
      await result.getByRole('button', { name: s.next('Link') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: s.next('Confirm') })
        .click();
      s.says('The dialog shows a verification code');
      const code = page.getByRole('dialog').locator('[aria-labelledby="verification-code-label"]');
      await code.waitFor();
      const verification = ((await code.textContent()) ?? '').trim();
      expect(verification).toMatch(/^VRCL-/);
      const profile = page.getByRole('dialog').getByRole('link', { name: s.next('Open Profile') });
      // "open it, paste the code into the bio, Save, come back".
      const [vrchat] = await Promise.all([page.context().waitForEvent('page'), profile.click()]);
      await vrchat.waitForLoadState();
      expect(vrchat.url()).toContain(demo.simulatorUrl);
      await vrchat.getByLabel('Bio').fill(verification);
      await vrchat.getByRole('button', { name: s.next('Save') }).click();
      await vrchat.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await vrchat.close();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: s.next('Verify Account') })
        .click();
      await page.getByText('Account Ownership Verified').first().waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByText(s.says('*Ownership-Verified*').slice(1, -1), { exact: true }).first().waitFor();
      s.done();
    },
    STEP_TIMEOUT_MS,
  );

  it(
    `2. ${step(2).title}`,
    async () => {
      const s = step(2);
      // The curl as written: the simulated Hangout gets the role.
      const [command] = s.commands;
      expect(command).toContain(`/control/discord/guilds/${HANGOUT}/roles`);
      const role = (run(command) as { name: string }).name;
      expect(s.says(`choose \`${role}\` as the`)).toBeTruthy();
      // Switch account: Logout in the header, then Login through Discord again; the consent page asks.
      await page
        .getByRole('banner')
        .getByRole('link', { name: s.next('Logout') })
        .click();
      await page
        .getByRole('banner')
        .getByRole('link', { name: s.next('Login through Discord') })
        .click();
      await page.waitForURL(/\/oauth2\/authorize/);
      const admin = s.says('pick `demo_admin`').match(/`(.+)`/)![1];
      await (await findOnConsentPage(page, '1200000000000000001')).check();
      expect(await page.getByRole('radio', { name: admin, exact: true }).isChecked()).toBe(true);
      await page.getByRole('button', { name: s.next('Authorize') }).click();
      await page.waitForURL(`${demo.baseUrl}/profile`);
      await page.getByText(`@${admin}`).first().waitFor();
      await page
        .getByRole('banner')
        .getByRole('link', { name: s.next('Server Settings') })
        .click();
      await page
        .getByRole('navigation', { name: 'Your servers' })
        .getByText(s.next('VRChat Hangout'))
        .click();
      await page.getByRole('tab', { name: s.next('Discord'), selected: true }).waitFor();
      const field = s.next('Linked Users Role');
      await page.getByRole('combobox', { name: field }).click();
      await page.getByRole('listbox').getByRole('option', { name: role, exact: true }).click();
      // "Before saving, the page says what will happen".
      const preview = page.getByRole('region', { name: 'Change preview' });
      const sentence = s.says('"Linked will be given to 2 members."').slice(1, -1);
      await preview.getByText(sentence).waitFor({ timeout: EFFECT_TIMEOUT_MS });
      await preview.getByRole('button', { name: s.next('Show members') }).click();
      // Each listed by the name the server shows (the VRChat account may follow it).
      for (const name of ['Akira', 'Glitch [VRChat]']) {
        const shown = s.says(`*${name}*`).slice(1, -1);
        const first = new RegExp(`^\\s*${shown.replace(/[[\]]/g, '\\$&')}( |$)`);
        await preview.getByRole('listitem').filter({ hasText: first }).first().waitFor();
      }
      await preview.getByRole('button', { name: s.next('Save') }).click();
      await preview.waitFor({ state: 'detached' });
      s.done();
    },
    STEP_TIMEOUT_MS,
  );

  it(
    `3. ${step(3).title}`,
    async () => {
      const s = step(3);
      const address = s.says(`\`${SHOWN_SIMULATOR}/channels/${HANGOUT}\``).slice(1, -1);
      const discord = await page.context().newPage();
      const row = discord.getByRole('row', { name: /@glitchwolf/ });
      s.says('`glitchwolf` holds *Linked*');
      await expect
        .poll(
          async () => {
            await discord.goto(here(address));
            return (await row.textContent()) ?? '';
          },
          { timeout: EFFECT_TIMEOUT_MS, interval: 2000 },
        )
        .toContain('Linked');
      await discord.close();
      s.says('it never changes nicknames');
      // The Audit Log on the Management tab: each change the bot made.
      await page.getByRole('tab', { name: s.next('Management') }).click();
      await page
        .getByRole('navigation', { name: 'Management sections' })
        .getByRole('link', { name: s.next('Audit Log') })
        .click();
      const audit = page.getByRole('region', { name: 'Audit Log' });
      s.says('shows each change the bot made');
      await expect
        .poll(
          async () => {
            await audit.getByRole('button', { name: 'Search' }).click();
            return (
              (await audit
                .getByRole('table')
                .textContent()
                .catch(() => '')) ?? ''
            );
          },
          { timeout: EFFECT_TIMEOUT_MS, interval: 2000 },
        )
        .toMatch(/glitchwolf/);
      s.done();
    },
    STEP_TIMEOUT_MS,
  );

  it(
    `4. ${step(4).title}`,
    async () => {
      const s = step(4);
      const [command] = s.commands;
      expect(command).toContain('"commandName":"link"');
      const link = await botAnswer(command);
      s.says('a link to this site at the printed address');
      expect(link).toContain(demo.baseUrl);
      // "/login answers a one-time sign-in link (5 minutes)": the same command, named login.
      s.says('`/login` answers a one-time sign-in link (5 minutes)');
      const login = await botAnswer(command.replace('"commandName":"link"', '"commandName":"login"'));
      expect(login).toContain(`${demo.baseUrl}/`);
      expect(login).toMatch(/5 minutes/);
      s.done();
    },
    STEP_TIMEOUT_MS,
  );

  it(
    `5. ${step(5).title}`,
    async () => {
      const s = step(5);
      const [pageName, tabName] = s.next('Server Settings → Members').split(' → ');
      await page.getByRole('banner').getByRole('link', { name: pageName }).click();
      await page.getByRole('navigation', { name: 'Your servers' }).getByText('VRChat Hangout').click();
      await page.getByRole('tab', { name: tabName }).click();
      s.says('lists who is linked');
      await page
        .getByRole('button', { name: /glitchwolf/ })
        .first()
        .waitFor();
      await page.getByText('Orion Drift').first().waitFor();
      s.next('/admin');
      s.says('(as `demo_admin`)');
      await page.goto('/admin', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Scheduled Tasks' }).waitFor();
      const jobs = page.getByRole('region', { name: s.next('Recent Jobs') });
      const job = s.says('*Sync one server*').slice(1, -1);
      const outcome = s.says('*Succeeded*').slice(1, -1);
      await expect
        .poll(
          async () => {
            await page.reload({ waitUntil: 'networkidle' });
            return jobs.getByRole('listitem', { name: `${job}: ${outcome}` }).count();
          },
          { timeout: EFFECT_TIMEOUT_MS, interval: 3000 },
        )
        .toBeGreaterThan(0);
      s.done();
    },
    STEP_TIMEOUT_MS,
  );
});
