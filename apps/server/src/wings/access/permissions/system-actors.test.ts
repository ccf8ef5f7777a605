import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { signInHangoutOwner } from '../../../../test/factories.js';
import { apiKeyActor, botActor, jobActor, userActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import { requireGuildPermission } from './access.service.js';

const { hangout } = seedGuildIds;

describe('who acts: users, API keys, the bot and jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forManyDiscordCalls);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets the bot and jobs act in a server the bot is in, through the explicit system path', async () => {
    for (const actor of [botActor, jobActor('members.reconcile')]) {
      const access = await requireGuildPermission(t.ctx, actor, hangout.id, 'Admin');
      expect(access.permissions).toContain('ManageWorlds');
    }
  });

  it('gives the system path nothing in a server without the bot', async () => {
    await expect(
      requireGuildPermission(t.ctx, botActor, seedGuildIds.quietCorner.id, 'ViewGuild'),
    ).rejects.toMatchObject({ kind: 'missing' });
  });

  it('still checks users and API keys one by one', async () => {
    await expect(
      requireGuildPermission(t.ctx, userActor('1299999999999999999'), hangout.id, 'ViewGuild'),
    ).rejects.toMatchObject({ kind: 'refused' });
    await expect(
      requireGuildPermission(
        t.ctx,
        apiKeyActor('00000000-0000-0000-0000-000000000000'),
        hangout.id,
        'ViewGuild',
      ),
    ).rejects.toMatchObject({ kind: 'refused' });
  });

  it('names the bot and jobs as actors in the audit log', async () => {
    const owner = await signInHangoutOwner(t);
    await audit(t.ctx.db, { action: 'guest.revoked_host_lost_role', actor: botActor, guildId: hangout.id });
    await audit(t.ctx.db, {
      action: 'link.refreshed',
      actor: jobActor('links.refresh'),
      guildId: hangout.id,
    });
    const res = await t.inject({
      method: 'GET',
      url: `/api/groups/audit_log/${hangout.id}?sortBy=CreatedAt&sortOrder=Ascending`,
      session: owner.session,
    });
    expect(res.statusCode).toBe(200);
    const rows = res.json().auditLogs as { actorId: string; actorDisplayname: string | null }[];
    expect(rows.map((r) => [r.actorId, r.actorDisplayname])).toEqual(
      expect.arrayContaining([
        ['bot', 'bot'],
        ['job:links.refresh', 'job links.refresh'],
      ]),
    );
    const filtered = await t.inject({
      method: 'GET',
      url: `/api/groups/audit_log/${hangout.id}?actorNames=bot`,
      session: owner.session,
    });
    expect(filtered.json().totalCount).toBe(1);
  });
});
