import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { discordMember, signInHangoutOwner, signInWithDiscord } from '../../../../test/factories.js';
import { handleJob } from '../../../jobs/define.js';
import { accountEraseHandler } from '../../../jobs/handlers/account-erase.js';
import type { PgBossJobQueue } from '../../../jobs/pg-boss-queue.js';
import { startJobWorker } from '../../../jobs/worker.js';
import { botActor } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import { linkedRolesUpdateJob, syncGuildJob } from '../../../kernel/job-catalog.js';
import { waitFor } from '../../../platforms/testing.js';
import { closeFinishedErasures } from './account-erasure.js';

const { hangout } = seedGuildIds;

/** A job held running until the test lets it finish; then it writes an audit entry naming the member. */
function heldJob() {
  let started!: () => void;
  let release!: () => void;
  const isStarted = new Promise<void>((r) => {
    started = r;
  });
  const released = new Promise<void>((r) => {
    release = r;
  });
  return { started, isStarted, release, released };
}

/**
 * Work that runs while an account is erased (a Linked Roles update that read the member's token before it
 * went, a server's sync that observed them before the take-back) writes its audit entry late. The erasure
 * waits for such work and erases again, so no entry written by it names the deleted member.
 */
describe('account erasure with work in flight (against the simulators)', () => {
  let t: TestApp;
  let stopWorker: (() => Promise<void>) | undefined;
  // Whose Linked Roles update, and which sync (by its reason), the test holds; any other runs through.
  const held = { updateOf: '', syncReason: '' };
  const roleUpdate = heldJob();
  const sync = heldJob();
  // The erasure's waits for running work (spied on, calling through).
  let waits: { mock: { calls: unknown[][] } };

  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forVrchatTestPacing, jobs: true });
    waits = vi.spyOn(t.ctx.jobs as PgBossJobQueue, 'untilRunningFinish');
    stopWorker = await startJobWorker(t.ctx, [
      accountEraseHandler,
      handleJob(linkedRolesUpdateJob, async (ctx, { userId }) => {
        if (userId !== held.updateOf) return;
        roleUpdate.started();
        await roleUpdate.released;
        await audit(ctx.db, { action: 'linked_roles.updated', actor: botActor, targetId: userId });
      }),
      handleJob(syncGuildJob, async (ctx, { guildId, reason }) => {
        if (reason !== held.syncReason) return;
        sync.started();
        await sync.released;
        await audit(ctx.db, {
          action: 'sync.role_removed',
          actor: botActor,
          guildId,
          targetId: reason.slice('held:'.length),
        });
      }),
    ]);
    await signInHangoutOwner(t);
  });
  afterAll(async () => {
    roleUpdate.release();
    sync.release();
    await stopWorker?.();
    await t?.close();
  });

  const erased = async (memberId: string) => {
    const { rows } = await t.ctx.database.executeSql(
      `select 1 from pgboss.job where name = 'account.erase' and state = 'completed' and data->>'userId' = $1`,
      [memberId],
    );
    return rows.length > 0;
  };

  /**
   * The member deletes their account; the held job is let go once the erasure waits for it (a wait whose
   * filter mentions `waitedFor`), or, were the erasure not to wait, once it finished. Resolves when it finished.
   */
  async function deleteAndErase(
    member: { id: string; username: string },
    session: string,
    release: () => void,
    waitedFor: string,
  ) {
    const res = await t.inject({
      method: 'DELETE',
      url: '/api/users/profile',
      session,
      payload: { username: member.username },
    });
    expect(res.statusCode, res.body).toBe(200);
    const waiting = () => waits.mock.calls.some(([which]) => JSON.stringify(which).includes(waitedFor));
    await waitFor(async () => waiting() || (await erased(member.id)), 30_000);
    release();
    await waitFor(() => erased(member.id), 30_000);
  }

  /** The actions of the audit entries that name `id` anywhere. */
  async function entriesNaming(id: string) {
    const { rows } = await t.ctx.database.executeSql(
      'select action from audit_log where actor_id = $1 or target_id = $1 or strpos(details::text, $1) > 0',
      [id],
    );
    return rows.map((r) => r.action);
  }

  const pseudonym = expect.stringMatching(/^deleted-user-[0-9a-f]{12}$/);
  const targetsOf = async (action: string) =>
    (
      await t.ctx.database.executeSql(
        'select target_id from audit_log where action = $1 order by created_at',
        [action],
      )
    ).rows.map((r) => r.target_id);

  it('waits for a running job of theirs, then pseudonymises what it logged', async () => {
    const member = await discordMember(t, hangout.id, { username: 'late_update' });
    held.updateOf = member.id;
    // Signing in asks for a Linked Roles update: held running, as if it had read their token.
    const session = await signInWithDiscord(t, member.id);
    await roleUpdate.isStarted;
    await deleteAndErase(member, session, roleUpdate.release, member.id);
    // The erasure's own Linked Roles update and the held one: both under the pseudonym.
    expect(await targetsOf('linked_roles.updated')).toEqual([pseudonym, pseudonym]);
    expect(await entriesNaming(member.id)).toEqual([]);
  });

  it("waits for the server's running sync before taking back, then pseudonymises what it logged", async () => {
    const member = await discordMember(t, hangout.id, { username: 'late_sync' });
    const session = await signInWithDiscord(t, member.id);
    // The server's sync, held running: it observed the member and logs an entry about them when let go.
    // (Syncs asked for by the member's arrival run through first, so this one is not collapsed into them.)
    await waitFor(async () => {
      const state = await t.ctx.jobs.jobsOfKey?.(syncGuildJob, hangout.id);
      return state && !state.running && state.startsAt === null;
    }, 30_000);
    held.syncReason = `held:${member.id}`;
    const sent = await t.ctx.jobs.send(
      syncGuildJob,
      { guildId: hangout.id, reason: held.syncReason },
      { singletonKey: hangout.id },
    );
    expect(sent).toBeTruthy();
    await sync.isStarted;
    await deleteAndErase(member, session, sync.release, syncGuildJob.name);
    expect(await targetsOf('sync.role_removed')).toEqual([pseudonym]);
    expect(await entriesNaming(member.id)).toEqual([]);
  });

  it('erases once more in the hourly purge, with the same pseudonym, and forgets the jobs naming them and the erasure', async () => {
    // Work that ran past the erasure's wait (a big server's sync) logs about a member erased above.
    const [late] = (
      await t.ctx.database.executeSql(
        "select data->>'userId' as id, data->>'pseudonym' as pseudonym from pgboss.job where name = 'account.erase'",
      )
    ).rows as { id: string; pseudonym: string }[];
    await audit(t.ctx.db, {
      action: 'sync.role_removed',
      actor: botActor,
      guildId: hangout.id,
      targetId: late.id,
    });
    expect(await entriesNaming(late.id)).toEqual(['sync.role_removed']);
    // And a job naming them finished after the erasure (its payload stays in the queue).
    held.updateOf = '';
    await t.ctx.jobs.send(linkedRolesUpdateJob, { userId: late.id }, { singletonKey: late.id });
    const finishedNaming = async () =>
      (
        await t.ctx.database.executeSql(
          "select 1 from pgboss.job where name = $1 and state = 'completed' and data->>'userId' = $2",
          [linkedRolesUpdateJob.name, late.id],
        )
      ).rows.length;
    await waitFor(finishedNaming, 30_000);

    await closeFinishedErasures(t.ctx);
    expect(await entriesNaming(late.id)).toEqual([]);
    expect(await finishedNaming()).toBe(0);
    expect(await targetsOf('sync.role_removed')).toEqual([pseudonym, late.pseudonym]);
    const { rows: left } = await t.ctx.database.executeSql(
      "select 1 from pgboss.job where name = 'account.erase'",
    );
    expect(left).toEqual([]);
  });
});
