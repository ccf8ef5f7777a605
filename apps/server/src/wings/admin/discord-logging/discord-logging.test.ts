import { Writable } from 'node:stream';
import { seedGuildIds } from '@vrclink/simulator';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner, discordMember, rows, signInMember } from '../../../../test/factories.js';
import { userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import { deliverDiscordLogs } from './delivery.js';
import { PROBLEM_MESSAGES, unknownChannel } from './discord-logging.service.js';

const { hangout } = seedGuildIds;
const CONFIG = `/api/guilds/logging/${hangout.id}/config`;
const CHANNELS = `/api/guilds/channels/${hangout.id}/channels`;
const SEND_MESSAGES = String(1 << 11);
const VIEW_CHANNEL = String(1 << 10);
const botRole = hangout.roles.VRCLink;

interface Message {
  embeds: { title: string; description: string; fields: { name: string; value: string }[] }[];
}

describe('Logging to Discord (against the simulated Discord)', () => {
  let t: TestApp, owner: { id: string; session: string };
  const warnings: string[] = [];

  beforeAll(async () => {
    // Warnings are collected to check that a dropped post says so in the log.
    const sink = new Writable({
      write(chunk, _enc, done) {
        warnings.push(String(chunk));
        done();
      },
    });
    ({ t, owner } = await appWithHangoutOwner({
      ...laxSimulator.forManyDiscordCalls,
      log: pino({ level: 'warn' }, sink),
    }));
  });
  afterEach(async () => {
    await t.control('DELETE', '/faults');
    await t.ctx.database.executeSql('delete from discord_log_outbox');
  });
  afterAll(() => t?.close());

  const asOwner = (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
    t.inject({ method, url, payload, session: owner.session });
  /** Saves the settings; the change's own post (a settings change) is cleared unless `keepPost`. */
  const configure = async (channelId: string | null, eventTypes: string[], keepPost = false) => {
    const res = await asOwner('PATCH', CONFIG, { channelId, eventTypes });
    expect(res.statusCode, res.body).toBe(200);
    if (!keepPost) await t.ctx.database.executeSql('delete from discord_log_outbox');
    return res.json();
  };
  /** A change the Settings kind logs: the contact e-mail. */
  const changeSettings = async (email = 'owner@example.com') =>
    expect((await asOwner('POST', `/api/guilds/${hangout.id}/contact`, { email })).statusCode).toBe(200);
  const messages = async (channelId: string): Promise<Message[]> =>
    (await t.control('GET', `/discord/channels/${channelId}/messages`)).body;
  const newChannel = async (name: string, permissionOverwrites: object[] = []) => {
    const res = await t.control('POST', `/discord/guilds/${hangout.id}/channels`, {
      name,
      permissionOverwrites,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  describe('GET /api/guilds/channels/{guildId}/channels', () => {
    it('lists only the text channels the bot can post in', async () => {
      const closed = await newChannel('announcements-closed', [
        { id: botRole, type: 0, deny: SEND_MESSAGES },
      ]);
      // Hidden from @everyone but opened to the bot's role: the bot can post there.
      const staff = await newChannel('staff-log', [
        { id: hangout.id, type: 0, deny: VIEW_CHANNEL },
        { id: botRole, type: 0, allow: VIEW_CHANNEL },
      ]);
      const res = await asOwner('GET', CHANNELS);
      expect(res.statusCode, res.body).toBe(200);
      const ids = res.json().channels.map((c: { id: string }) => c.id);
      expect(ids).toEqual(expect.arrayContaining([hangout.channels.general, hangout.channels.botLog, staff]));
      expect(ids).not.toContain(closed);
    });

    it('answers 401 to an anonymous caller and 403 to a member without Admin', async () => {
      expect((await t.inject({ method: 'GET', url: CHANNELS })).statusCode).toBe(401);
      const member = await signInMember(t, hangout.id);
      const res = await t.inject({ method: 'GET', url: CHANNELS, session: member.session });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You need the Admin permission in this server.');
    });
  });

  describe('GET and PATCH /api/guilds/logging/{guildId}/config', () => {
    it('is off until configured, then shows the channel and kinds; the change is audit-logged', async () => {
      const before = (await asOwner('GET', CONFIG)).json();
      expect(before).toMatchObject({ channelId: null, eventTypes: [], problem: null });
      expect(before.eventTypeChoices.map((c: { id: string }) => c.id)).toEqual([
        'links',
        'verifications',
        'roleChanges',
        'groupSync',
        'settings',
        'failures',
      ]);
      const saved = await configure(hangout.channels.botLog, ['settings', 'failures']);
      expect(saved).toMatchObject({
        channelId: hangout.channels.botLog,
        eventTypes: ['settings', 'failures'],
      });
      expect((await asOwner('GET', CONFIG)).json()).toMatchObject(saved);
      const logged = await rows(t, 'audit_log', `action = 'discord_logging.config' and guild_id = $1`, [
        hangout.id,
      ]);
      expect(logged.at(-1)).toMatchObject({
        actor_id: owner.id,
        details: {
          channelId: hangout.channels.botLog,
          channelName: 'bot-log',
          eventTypes: ['settings', 'failures'],
        },
      });
    });

    it('refuses a channel of no text channel here, and one the bot cannot post in, naming why', async () => {
      const unknown = await asOwner('PATCH', CONFIG, { channelId: '1599999999999999999' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe(unknownChannel('1599999999999999999'));
      const closed = await newChannel('no-bot', [{ id: botRole, type: 0, deny: SEND_MESSAGES }]);
      const refused = await asOwner('PATCH', CONFIG, { channelId: closed });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('The bot lacks Send Messages in #no-bot.');
    });

    it('refuses an empty body and unknown kinds with a sentence', async () => {
      const empty = await asOwner('PATCH', CONFIG, {});
      expect(empty.statusCode).toBe(400);
      const bad = await asOwner('PATCH', CONFIG, { eventTypes: ['everything'] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toMatch(/Event types are links, verifications/);
    });

    it('lets a ViewGuild holder read the settings but not change them', async () => {
      const viewer = await signInMember(t, hangout.id);
      await asOwner('POST', `/api/guilds/permissions/${hangout.id}/${viewer.id}`, {
        permissions: ['ViewGuild'],
      });
      const read = await t.inject({ method: 'GET', url: CONFIG, session: viewer.session });
      expect(read.statusCode).toBe(200);
      const write = await t.inject({
        method: 'PATCH',
        url: CONFIG,
        payload: { eventTypes: [] },
        session: viewer.session,
      });
      expect(write.statusCode).toBe(403);
      expect(write.json().message).toBe('You need the Admin permission in this server.');
    });
  });

  describe('the outbox', () => {
    it('gets a row with the audit entry when the kind is wanted, none otherwise', async () => {
      await configure(hangout.channels.botLog, ['settings']);
      await changeSettings('first@example.com');
      const [entry] = await rows(
        t,
        'audit_log',
        `action = 'guild.contact_email' and details->>'after' = $1`,
        ['first@example.com'],
      ).then((r) => r.slice(-1));
      const outbox = (await t.ctx.database.executeSql('select * from discord_log_outbox')).rows;
      expect(outbox).toEqual([
        expect.objectContaining({
          guild_id: hangout.id,
          channel_id: hangout.channels.botLog,
          audit_id: entry.id,
          event_type: 'settings',
        }),
      ]);
      // Only failures wanted: a settings change is audit-logged but not posted.
      await configure(hangout.channels.botLog, ['failures']);
      await t.ctx.database.executeSql('delete from discord_log_outbox');
      await changeSettings('second@example.com');
      expect((await t.ctx.database.executeSql('select * from discord_log_outbox')).rows).toEqual([]);
    });

    it('is written in the same transaction as the audit entry: a rollback leaves neither', async () => {
      await configure(hangout.channels.botLog, ['settings']);
      await t.ctx.database.executeSql('delete from discord_log_outbox');
      await expect(
        t.ctx.db.transaction(async (tx) => {
          await audit(tx, { action: 'guild.contact_email', actor: userActor(owner.id), guildId: hangout.id });
          expect((await tx.execute('select count(*)::int as n from discord_log_outbox')).rows[0]).toEqual({
            n: 1,
          });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect((await t.ctx.database.executeSql('select * from discord_log_outbox')).rows).toEqual([]);
    });

    it("posts a member's link in every server they are in that logs links", async () => {
      await configure(hangout.channels.general, ['links']);
      const member = await discordMember(t, hangout.id);
      await audit(t.ctx.db, { action: 'link.created', actor: userActor(member.id), targetId: 'usr_x' });
      const outbox = (await t.ctx.database.executeSql('select * from discord_log_outbox')).rows;
      expect(outbox).toEqual([expect.objectContaining({ guild_id: hangout.id, event_type: 'links' })]);
    });
  });

  describe('the delivery job', () => {
    it('posts a short embed into the channel and empties the outbox', async () => {
      const channel = await newChannel('vrclink-log');
      await configure(channel, ['settings'], true);
      await changeSettings('posted@example.com');
      const result = await deliverDiscordLogs(t.ctx);
      expect(result).toMatchObject({ posted: 2, dropped: 0 });
      const [configured, message] = await messages(channel);
      // Saving the logging settings is itself a settings change, posted first.
      expect(configured.embeds[0]).toMatchObject({
        title: 'Settings changes',
        description: 'Changed Discord logging · #vrclink-log',
      });
      expect(message.embeds[0]).toMatchObject({
        title: 'Settings changes',
        description: 'Changed the contact e-mail',
        fields: [{ name: 'By', value: 'demo\\_admin' }],
      });
      expect((await t.ctx.database.executeSql('select * from discord_log_outbox')).rows).toEqual([]);
    });

    it('posts names from users and platforms as the same characters: no masked link, pill or @everyone', async () => {
      const channel = await newChannel('hostile-log');
      await configure(channel, ['links']);
      const member = await discordMember(t, hangout.id);
      const hostile = `[x](https://e.x) <@&${botRole}> @everyone # Head`;
      await audit(t.ctx.db, {
        action: 'link.created',
        actor: userActor(member.id),
        targetId: 'usr_x',
        details: { vrchatName: hostile, roleName: '**Role** @here' },
      });
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 1 });
      const [message] = await messages(channel);
      const { description } = message.embeds[0];
      expect(description).toContain(
        `\\[x\\]\\(https://e.x\\) \\<@&${botRole}\\> @\u200beveryone # Head · role \\*\\*Role\\*\\* @\u200bhere`,
      );
      expect(description).not.toMatch(/(^|[^\\])\[x/);
    });

    it('drops bidirectional and zero-width characters from names, so a U+202E name cannot reverse the line', async () => {
      const channel = await newChannel('bidi-log');
      await configure(channel, ['links']);
      const member = await discordMember(t, hangout.id);
      await audit(t.ctx.db, {
        action: 'link.created',
        actor: userActor(member.id),
        targetId: 'usr_x',
        details: { vrchatName: 'Mallory\u202E\u2066 nimda\u200B\uFEFF', roleName: 'Ro\u2060le\u200F' },
      });
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 1 });
      const [message] = await messages(channel);
      expect(message.embeds[0].description).toBe('Linked a VRChat account · Mallory nimda · role Role');
    });

    it('names the roles and what changed when an auto role changes', async () => {
      const channel = await newChannel('roles-log');
      await configure(channel, ['settings']);
      const res = await t.inject({
        method: 'POST',
        url: `/api/guilds/${hangout.id}`,
        session: owner.session,
        payload: { autoAssignRoles: { linkedRoleId: hangout.roles.Verified } },
      });
      expect(res.statusCode).toBe(200);
      await deliverDiscordLogs(t.ctx);
      const posted = (await messages(channel)).map((m) => m.embeds[0].description);
      expect(posted).toContain('Changed auto-assigned roles · Linked Users Role: none → Verified');
      await t.inject({
        method: 'POST',
        url: `/api/guilds/${hangout.id}`,
        session: owner.session,
        payload: { autoAssignRoles: { linkedRoleId: null } },
      });
    });

    it("waits out Discord's rate limit and posts", async () => {
      const channel = await newChannel('rate-limited-log');
      await configure(channel, ['settings']);
      await changeSettings('limited@example.com');
      await t.control('POST', '/faults', {
        platform: 'discord',
        kind: 'rate_limit',
        count: 1,
        pathContains: '/messages',
      });
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 1 });
      expect(await messages(channel)).toHaveLength(1);
    });

    it('keeps a post Discord failed on, for a later attempt with backoff', async () => {
      const channel = await newChannel('flaky-log');
      await configure(channel, ['settings']);
      await changeSettings('flaky@example.com');
      await t.control('POST', '/faults', {
        platform: 'discord',
        kind: 'server_error',
        pathContains: '/messages',
      });
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 0, deferred: 1 });
      const [row] = (
        await t.ctx.database.executeSql(
          'select attempts, next_attempt_at > now() as later from discord_log_outbox',
        )
      ).rows;
      expect(row).toEqual({ attempts: 1, later: true });
      await t.control('DELETE', '/faults');
      await t.ctx.database.executeSql('update discord_log_outbox set next_attempt_at = now()');
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 1 });
      expect(await messages(channel)).toHaveLength(1);
    });

    it('says posts were dropped while the bot could not post, until the next post goes through', async () => {
      const channel = await newChannel('closed-then-open-log');
      await configure(channel, ['settings']);
      const closeToBot = (deny: string) =>
        t.control('PATCH', `/discord/channels/${channel}`, {
          permissionOverwrites: deny === '0' ? [] : [{ id: botRole, type: 0, deny }],
        });
      expect((await closeToBot(SEND_MESSAGES)).status).toBe(200);
      await changeSettings('closed@example.com');
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 0, dropped: 1 });
      expect((await asOwner('GET', CONFIG)).json().problem).toMatchObject({
        kind: 'cannotPost',
        message: PROBLEM_MESSAGES.cannotPost,
      });
      // The permission comes back (in Discord, not through the dialog): the next post clears the notice.
      expect((await closeToBot('0')).status).toBe(200);
      await changeSettings('open-again@example.com');
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 1, dropped: 0 });
      expect(await messages(channel)).toHaveLength(1);
      expect((await asOwner('GET', CONFIG)).json().problem).toBeNull();
    });

    it('drops the posts of a deleted channel with a warning, and the settings say the channel is gone', async () => {
      const channel = await newChannel('doomed-log');
      await configure(channel, ['settings']);
      await changeSettings('doomed1@example.com');
      await changeSettings('doomed2@example.com');
      expect((await t.control('DELETE', `/discord/channels/${channel}`)).status).toBe(204);
      warnings.length = 0;
      expect(await deliverDiscordLogs(t.ctx)).toMatchObject({ posted: 0, dropped: 2 });
      expect((await t.ctx.database.executeSql('select * from discord_log_outbox')).rows).toEqual([]);
      expect(warnings.join('\n')).toContain('the log channel is gone');
      const config = (await asOwner('GET', CONFIG)).json();
      expect(config.problem).toMatchObject({ kind: 'channelGone', message: PROBLEM_MESSAGES.channelGone });
      // Choosing a channel again clears it.
      expect((await configure(hangout.channels.botLog, ['settings'])).problem).toBeNull();
    });
  });
});
