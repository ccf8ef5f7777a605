import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../test/app.js';
import {
  appWithHangoutOwner,
  discordMember,
  discordRole,
  rows,
  vrchatLink,
  vrchatUser,
  withoutMembersIntent,
} from '../../../test/factories.js';
import { guildPermissions } from '../../db/schema/index.js';
import { userActor } from '../../kernel/actor.js';
import { waitFor } from '../../platforms/testing.js';
import { previewGuildSync } from '../../wings/group-sync/sync/sync.service.js';
import { slashCommands } from './index.js';
import { registerCommands } from './register.js';

const { hangout } = seedGuildIds;
const EPHEMERAL = 1 << 6;
const LOADING = 1 << 7;

interface InteractionView {
  callback: { type: number } | null;
  ephemeral: boolean;
  original: { content: string; flags: number } | null;
}

/** A member uses a slash command in the Hangout (as in the Discord client); answers the finished reply. */
async function use(
  t: TestApp,
  userId: string,
  commandName: string,
  options?: Record<string, string>,
): Promise<InteractionView> {
  const res = await t.control('POST', '/discord/interactions', {
    guildId: hangout.id,
    userId,
    commandName,
    options,
  });
  expect(res.status).toBe(201);
  expect(res.body.deliveredTo).toBeGreaterThan(0);
  const id: string = res.body.interactionId;
  return waitFor(async () => {
    const view = (await t.control('GET', `/discord/interactions/${id}`)).body as InteractionView;
    return view.original && (view.original.flags & LOADING) === 0 ? view : null;
  }, 15_000);
}

const DEADLINE_MS = 5000;

const urlIn = (content: string) => new URL((content.match(/https?:\/\/\S+/) as RegExpMatchArray)[0]);

describe('slash commands (discord.js against the simulated Discord)', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    // The interactive deadline shortened from the default 10 s so a hanging VRChat is answered quickly.
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forVrchatTestPacing,
      jobs: true,
      vrchatPacer: { interactiveDeadlineMs: DEADLINE_MS },
    }));
  });
  afterAll(() => t?.close());

  it('registers every command globally at start, and only when the definitions changed', async () => {
    const state = await t.control('GET', '/discord/state');
    const names = (state.body.commands as { name: string; guild_id?: string }[])
      .filter((c) => !c.guild_id)
      .map((c) => c.name)
      .sort();
    expect(names).toEqual(['link', 'login', 'sync', 'verify', 'whois']);
    const rest = t.platforms?.bot.rest;
    if (!rest) throw new Error('no bot');
    expect(await registerCommands(t.ctx, rest, slashCommands)).toBe('unchanged');
    // Someone removed one in the meantime: the next start puts them back.
    const login = (state.body.commands as { id: string; name: string }[]).find((c) => c.name === 'login');
    await rest.delete(`/applications/${t.ctx.config.discord.clientId}/commands/${login?.id}`);
    expect(await registerCommands(t.ctx, rest, slashCommands)).toBe('registered');
    expect(await registerCommands(t.ctx, rest, slashCommands)).toBe('unchanged');
  });

  it('/login answers ephemerally with a link that signs the member in once; a second use is refused', async () => {
    const member = await discordMember(t, hangout.id, { username: 'loginner' });
    const reply = await use(t, member.id, 'login');
    expect(reply.callback?.type).toBe(4);
    expect(reply.ephemeral).toBe(true);
    expect((reply.original?.flags ?? 0) & EPHEMERAL).toBe(EPHEMERAL);
    expect(reply.original?.content).toMatch(/works once, for 5 minutes/);
    const url = urlIn(reply.original?.content ?? '');
    expect(url.pathname).toBe('/discord_auth');
    const token = url.searchParams.get('token') as string;

    // As the web page does: name the account first, then sign in.
    const preview = await t.app.inject({
      method: 'GET',
      url: `/api/discord_auth/preview?token=${encodeURIComponent(token)}`,
    });
    expect(preview.json()).toMatchObject({ username: 'loginner' });
    const login = await t.inject({
      method: 'GET',
      url: `/api/discord_auth?token=${encodeURIComponent(token)}`,
    });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ id: member.id, username: 'loginner' });
    const again = await t.inject({
      method: 'GET',
      url: `/api/discord_auth?token=${encodeURIComponent(token)}`,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toMatch(/already used/);
    expect(
      await rows(t, 'audit_log', "action = 'user.login_link' and actor_id = $1", [member.id]),
    ).toHaveLength(1);
  });

  it('/link explains how to link, then shows the member’s link', async () => {
    const member = await discordMember(t, hangout.id);
    const before = await use(t, member.id, 'link');
    expect(before.ephemeral).toBe(true);
    expect(before.original?.content).toMatch(/^Your Discord account is not linked to a VRChat account yet\./);
    expect(before.original?.content).toContain(`${t.ctx.config.publicUrl}/profile`);
    await vrchatLink(t, {
      discordUserId: member.id,
      vrchatName: 'Link Tester',
      plus18: true,
      isVerified: false,
    });
    const after = await use(t, member.id, 'link');
    expect(after.original?.content).toMatch(/linked to the VRChat account Link Tester/);
    expect(after.original?.content).toContain('Ownership is not verified yet');
    // The account's 18+ is not the member's until they prove owning it.
    expect(after.original?.content).toContain('Age: not verified (ownership of this account is not proven).');
    expect(after.original?.content).not.toContain('18+');
  });

  it('/whois shows a member’s VRChat account to those who may view the server, and refuses others', async () => {
    const target = await discordMember(t, hangout.id, { username: 'whois_target' });
    const vrc = await vrchatUser(t, { displayName: 'Whois Person' });
    await vrchatLink(t, { discordUserId: target.id, vrcUserId: vrc.id, vrchatName: 'Whois Person' });

    const asOwner = await use(t, owner.id, 'whois', { member: target.id });
    expect(asOwner.ephemeral).toBe(true);
    expect(asOwner.original?.content).toBe(
      `@whois\\_target is Whois Person on VRChat (${t.ctx.config.vrchat.webUrl}/home/user/${vrc.id}). ` +
        'Ownership verified. Age: not verified on VRChat.',
    );

    const stranger = await discordMember(t, hangout.id);
    const refused = await use(t, stranger.id, 'whois', { member: target.id });
    expect(refused.ephemeral).toBe(true);
    expect(refused.original?.content).toBe('You need the ViewGuild permission in this server.');

    // A ViewGuild grant from the dashboard is enough.
    await t.ctx.db
      .insert(guildPermissions)
      .values({ guildId: hangout.id, userId: stranger.id, permissions: ['ViewGuild'], grantedBy: owner.id });
    const allowed = await use(t, stranger.id, 'whois', { member: target.id });
    expect(allowed.original?.content).toMatch(/^@whois\\_target is Whois Person on VRChat/);

    const unlinked = await discordMember(t, hangout.id, { username: 'nolink_person' });
    expect((await use(t, owner.id, 'whois', { member: unlinked.id })).original?.content).toBe(
      '@nolink\\_person has not linked a VRChat account.',
    );
  });

  it("/whois never shows an unproven link as 18+: the account may be a stranger's", async () => {
    const target = await discordMember(t, hangout.id, { username: 'claims_adult' });
    const vrc = await vrchatUser(t, { displayName: 'Someone Adult' });
    await vrchatLink(t, {
      discordUserId: target.id,
      vrcUserId: vrc.id,
      vrchatName: 'Someone Adult',
      plus18: true,
      isVerified: false,
    });
    const reply = await use(t, owner.id, 'whois', { member: target.id });
    expect(reply.original?.content).toBe(
      `@claims\\_adult is Someone Adult on VRChat (${t.ctx.config.vrchat.webUrl}/home/user/${vrc.id}). ` +
        'Ownership not verified. Age: not verified (ownership of this account is not proven).',
    );
  });

  it('posts a hostile VRChat name as the same characters: no masked link, role pill or @everyone', async () => {
    const role = hangout.roles.Verified;
    const hostile = `[x](https://e.x) <@&${role}> @everyone **Bold**`;
    const target = await discordMember(t, hangout.id, { username: 'hostile_target' });
    const vrc = await vrchatUser(t, { displayName: hostile });
    await vrchatLink(t, { discordUserId: target.id, vrcUserId: vrc.id, vrchatName: hostile });
    const reply = await use(t, owner.id, 'whois', { member: target.id });
    expect(reply.original?.content).toBe(
      `@hostile\\_target is \\[x\\]\\(https://e.x\\) \\<@&${role}\\> @\u200beveryone \\*\\*Bold\\*\\* on VRChat ` +
        `(${t.ctx.config.vrchat.webUrl}/home/user/${vrc.id}). Ownership verified. Age: not verified on VRChat.`,
    );
    const own = await use(t, target.id, 'link');
    expect(own.original?.content).toContain('the VRChat account \\[x\\]\\(https://e.x\\) \\<@&');
  });

  it('/sync queues a sync for managers, saying how many actions, after deferring; others are refused', async () => {
    // A Linked Users Role the linked members lack: the dry run counts one role to give per linked member.
    const linkedRole = await discordRole(t, hangout.id, 'Linked (commands test)');
    const settings = await t.inject({
      method: 'POST',
      url: `/api/guilds/${hangout.id}`,
      session: owner.session,
      payload: { autoAssignRoles: { linkedRoleId: linkedRole } },
    });
    expect(settings.statusCode).toBe(200);
    const linked = await discordMember(t, hangout.id);
    await vrchatLink(t, { discordUserId: linked.id, vrchatName: 'Sync Counted' });
    const { total } = await previewGuildSync(t.ctx, userActor(owner.id), hangout.id);
    expect(total).toBeGreaterThan(0);

    const reply = await use(t, owner.id, 'sync');
    expect(reply.callback?.type).toBe(5);
    expect(reply.ephemeral).toBe(true);
    // The settings change asked for a sync already (no worker runs here), so this one joins it.
    const actions = total === 1 ? '1 action (1 Discord role' : `${total} actions (${total} Discord roles`;
    expect(reply.original?.content).toBe(
      `A sync of this server is already waiting to run: ${actions} to give).`,
    );
    expect(
      await rows(t, 'audit_log', "action = 'sync.requested' and actor_id = $1", [owner.id]),
    ).toHaveLength(1);

    const member = await discordMember(t, hangout.id);
    const refused = await use(t, member.id, 'sync');
    expect(refused.ephemeral).toBe(true);
    expect(refused.original?.content).toBe('You need the Admin permission in this server.');
  });

  it('/verify re-reads the member’s VRChat account after deferring (VRChat slower than 3 seconds)', async () => {
    const member = await discordMember(t, hangout.id);
    const vrc = await vrchatUser(t, {
      displayName: 'Verify Old',
      ageVerificationStatus: '18+',
      ageVerified: true,
    });
    await vrchatLink(t, {
      discordUserId: member.id,
      vrcUserId: vrc.id,
      vrchatName: 'Verify Old',
      isVerified: false,
    });
    await t.control('PATCH', `/vrchat/users/${vrc.id}`, { displayName: 'Verify New' });
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'slow', delayMs: 3500, count: 1 });
    try {
      const reply = await use(t, member.id, 'verify');
      expect(reply.callback?.type).toBe(5);
      expect(reply.ephemeral).toBe(true);
      expect(reply.original?.content).toMatch(/^Your link is up to date: Verify New on VRChat\./);
      expect(reply.original?.content).toContain('Ownership is not verified yet');
      // The re-read age is stored (below) but not shown as the member's while the link is unproven.
      expect(reply.original?.content).toContain(
        'Age: not verified (ownership of this account is not proven).',
      );
    } finally {
      await t.control('DELETE', '/faults');
    }
    const [link] = await rows(t, 'vrchat_links', 'discord_user_id = $1', [member.id]);
    expect(link).toMatchObject({ vrchat_name: 'Verify New', age_verification: 'Plus18' });
  });

  it('answers every failure with a sentence: /verify without a link, and VRChat down', async () => {
    const member = await discordMember(t, hangout.id);
    const none = await use(t, member.id, 'verify');
    expect(none.original?.content).toBe(
      'No VRChat account is linked to your Discord account. Use /link to see how to link one.',
    );

    const vrc = await vrchatUser(t);
    await vrchatLink(t, { discordUserId: member.id, vrcUserId: vrc.id, vrchatName: vrc.displayName });
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'server_error' });
    try {
      const down = await use(t, member.id, 'verify');
      expect(down.ephemeral).toBe(true);
      expect(down.original?.content).toMatch(/^VRChat is not reachable right now\./);
    } finally {
      await t.control('DELETE', '/faults');
    }
  });

  it('/verify while VRChat hangs answers at the interactive deadline, saying why', async () => {
    const member = await discordMember(t, hangout.id);
    const vrc = await vrchatUser(t);
    await vrchatLink(t, { discordUserId: member.id, vrcUserId: vrc.id, vrchatName: vrc.displayName });
    await t.control('POST', '/faults', { platform: 'vrchat', kind: 'slow', delayMs: 8000 });
    try {
      const started = Date.now();
      const reply = await use(t, member.id, 'verify');
      const took = Date.now() - started;
      expect(reply.callback?.type).toBe(5);
      expect(reply.original?.content).toBe('VRChat did not answer in time. Try again in a minute.');
      // The deadline's answer, not VRChat's (which comes after 8 s) nor the request timeout's retries (15 s × 5
      // and backoff, which would say VRChat is not reachable): the text proves it, whatever the machine's speed.
      expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 500);
    } finally {
      await t.control('DELETE', '/faults');
    }
  }, 20_000);
});

describe('/whois when it has to ask Discord (no Server Members intent)', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forVrchatTestPacing,
      beforeStart: withoutMembersIntent,
    }));
  });
  afterAll(() => t?.close());

  it('/whois defers first, so Discord answering the member read after 4 s still gets an answer', async () => {
    // Added straight on the simulated Discord (the factory would read it once): unlinked and never read, so
    // the mirror (linked members only here) has to ask Discord.
    const added = await t.control('POST', `/discord/guilds/${hangout.id}/members`, {
      username: 'slow_whois',
    });
    expect(added.status).toBe(201);
    const target = { id: added.body.userId as string };
    // Only the bot's read of this member is slow, not the interaction's own callback.
    await t.control('POST', '/faults', {
      platform: 'discord',
      kind: 'slow',
      delayMs: 4000,
      count: 1,
      pathContains: `/members/${target.id}`,
    });
    try {
      const reply = await use(t, owner.id, 'whois', { member: target.id });
      expect(reply.callback?.type).toBe(5);
      expect(reply.ephemeral).toBe(true);
      expect(reply.original?.content).toBe('@slow\\_whois has not linked a VRChat account.');
      // The slow read was made: the answer did wait on Discord.
      expect((await t.control('GET', '/faults')).body).toEqual([]);
    } finally {
      await t.control('DELETE', '/faults');
    }
  });
});
