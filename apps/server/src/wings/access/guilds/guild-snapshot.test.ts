import { seedGuildIds } from '@vrclink/simulator';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laxSimulator, type TestApp } from '../../../../test/app.js';
import { appWithHangoutOwner } from '../../../../test/factories.js';
import { guildSnapshotShards, guildSnapshots } from '../../../db/schema/index.js';
import { waitFor } from '../../../platforms/testing.js';
import { GUILD_NOT_LOADED } from './guild-snapshot.port.js';
import { readGuildSnapshot } from './guild-snapshot.store.js';

const { hangout, danceClub } = seedGuildIds;

/** The roles the simulated Discord holds for a server: id → name. */
async function discordRoleNames(t: TestApp, guildId: string): Promise<Record<string, string>> {
  const res = await t.control('GET', `/discord/guilds/${guildId}`);
  return Object.fromEntries((res.body.roles as { id: string; name: string }[]).map((r) => [r.id, r.name]));
}

const snapshotRoleNames = async (t: TestApp, guildId: string) =>
  Object.fromEntries(((await readGuildSnapshot(t.ctx.db, guildId))?.roles ?? []).map((r) => [r.id, r.name]));

const shardLoadedAt = async (t: TestApp) =>
  (await t.ctx.db.select().from(guildSnapshotShards))[0]?.loadedAt.getTime();

const updatedAt = async (t: TestApp, guildId: string) =>
  (
    await t.ctx.db.select().from(guildSnapshots).where(eq(guildSnapshots.guildId, guildId))
  )[0]?.updatedAt.getTime();

describe('server snapshot (written by the gateway holder, read where no gateway is)', () => {
  let t: TestApp, owner: { id: string; session: string };
  beforeAll(async () => {
    ({ t, owner } = await appWithHangoutOwner(laxSimulator.forManyDiscordCalls));
    await waitFor(async () => (await shardLoadedAt(t)) !== undefined, 15_000);
  });
  afterAll(() => t?.close());

  it('holds every server the bot is in, with its roles and the bot’s own member, after connecting', async () => {
    for (const guild of [hangout, danceClub]) {
      const snapshot = await readGuildSnapshot(t.ctx.db, guild.id);
      expect(snapshot?.name).toBeTruthy();
      expect(await snapshotRoleNames(t, guild.id)).toEqual(await discordRoleNames(t, guild.id));
      expect(snapshot?.botMember?.userId).toBe(t.platforms?.bot.client.user?.id);
      expect(snapshot?.botMember?.roles.length).toBeGreaterThan(0);
    }
  });

  it('rewrites no row after a reconnect when nothing changed', async () => {
    const [before, shardBefore] = [await updatedAt(t, hangout.id), await shardLoadedAt(t)];
    expect((await t.control('POST', '/discord/gateway/reconnect')).status).toBeLessThan(300);
    await waitFor(async () => ((await shardLoadedAt(t)) ?? 0) > (shardBefore ?? 0), 30_000);
    expect(await updatedAt(t, hangout.id)).toBe(before);
  });

  it('follows a role renamed, created and deleted in Discord', async () => {
    const created = await t.control('POST', `/discord/guilds/${hangout.id}/roles`, { name: 'Snapshot test' });
    expect(created.status).toBe(201);
    const roleId = created.body.id as string;
    await waitFor(async () => (await snapshotRoleNames(t, hangout.id))[roleId] === 'Snapshot test', 15_000);
    await t.control('PATCH', `/discord/guilds/${hangout.id}/roles/${roleId}`, { name: 'Snapshot renamed' });
    await waitFor(
      async () => (await snapshotRoleNames(t, hangout.id))[roleId] === 'Snapshot renamed',
      15_000,
    );
    await t.control('DELETE', `/discord/guilds/${hangout.id}/roles/${roleId}`);
    await waitFor(async () => !(roleId in (await snapshotRoleNames(t, hangout.id))), 15_000);
    expect(await snapshotRoleNames(t, hangout.id)).toEqual(await discordRoleNames(t, hangout.id));
  });

  it('answers from the snapshot without a gateway, and says so while a server is not loaded yet', async () => {
    await t.platforms?.stopGateway();
    const settings = () =>
      t.inject({ method: 'GET', url: `/api/guilds/${hangout.id}`, session: owner.session });
    const first = await settings();
    expect(first.statusCode, first.body).toBe(200);
    // As a process sees it before any gateway holder has written this server.
    await t.ctx.db.delete(guildSnapshots).where(eq(guildSnapshots.guildId, hangout.id));
    await t.ctx.db.delete(guildSnapshotShards);
    const notLoaded = await settings();
    expect(notLoaded.statusCode).toBe(503);
    expect(notLoaded.json().message).toBe(GUILD_NOT_LOADED);
    await t.platforms?.startGateway();
    await waitFor(async () => (await settings()).statusCode === 200, 30_000);
  });

  it('drops a server the bot left', async () => {
    const botId = t.platforms?.bot.client.user?.id as string;
    expect(await readGuildSnapshot(t.ctx.db, danceClub.id)).toBeDefined();
    expect(
      (await t.control('DELETE', `/discord/guilds/${danceClub.id}/members/${botId}`)).status,
    ).toBeLessThan(300);
    await waitFor(async () => (await readGuildSnapshot(t.ctx.db, danceClub.id)) === undefined, 15_000);
  });
});
