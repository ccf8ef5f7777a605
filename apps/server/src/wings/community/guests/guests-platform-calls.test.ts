/**
 * No platform call while a transaction is open: the guest record is committed as 'assigning' before the role
 * is given (and marked 'removing' before it is taken back), and the reconciliation finishes what a crash
 * leaves in between. A guest role held without a record was given by hand and is never taken.
 */

import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import {
  botSeesRoles,
  discordMember,
  hostAndGuestRoles,
  rows,
  signInMember,
  simulatorRoles,
} from '../../../../test/factories.js';
import { waitFor } from '../../../platforms/testing.js';
import { reconcileGuildGuests } from './guests.reconcile.js';

const { hangout } = seedGuildIds;
const base = `/api/users/guests/${hangout.id}`;

describe('guest assignment and the platforms (against the simulators, on PGlite)', () => {
  let t: TestApp;
  let roles: { host: string; guestRole: string };

  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forManyDiscordCalls);
    roles = await hostAndGuestRoles(t, hangout.id, 5, ['Crash Host', 'Crash Guest']);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await t.control('DELETE', '/faults');
  });
  afterAll(() => t?.close());

  const host = () => signInMember(t, hangout.id, { roles: [roles.host] });
  const assign = (session: string, discordId: string) =>
    t.inject({ method: 'POST', url: `${base}/assign`, session, payload: { discordId } });
  const hasGuestRole = async (userId: string) =>
    (await simulatorRoles(t, hangout.id, userId))?.includes(roles.guestRole) ?? false;
  const guestRows = (hostId: string) => rows(t, 'guests', 'host_user_id = $1', [hostId]);
  /** What the process was doing when it was killed: a platform call that never comes back. */
  const killedDuring = (method: 'addRole' | 'removeRole') => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    vi.spyOn(t.ctx.discord, method).mockImplementation(() => held);
    return () => release();
  };
  /** The record is older than the in-flight window (the crash was a while ago). */
  const age = (hostId: string) =>
    t.ctx.database.executeSql(
      `update guests set created_at = now() - interval '1 hour' where host_user_id = '${hostId}'`,
    );

  it('a slow Discord during an assign does not delay an unrelated request', async () => {
    const user = await host();
    const guest = await discordMember(t, hangout.id);
    await t.control('POST', '/faults', {
      platform: 'discord',
      kind: 'slow',
      delayMs: 3000,
      pathContains: '/roles/',
      count: 1,
    });
    const pending = assign(user.session, guest.id);
    // The assign is waiting for Discord once the fault was taken (by the role call).
    await waitFor(async () => (await t.control('GET', '/faults')).body.length === 0);
    // Order, not a stopwatch: the health answer arrives while the assign still waits for Discord.
    const health = t.inject({ method: 'GET', url: '/api/health' });
    const first = await Promise.race([health.then(() => 'health'), pending.then(() => 'assign')]);
    expect(first).toBe('health');
    expect((await health).statusCode).toBe(200);
    expect((await pending).statusCode).toBe(200);
    expect(await hasGuestRole(guest.id)).toBe(true);
  });

  it('a crash after the record was committed and before the role was given: the reconciliation gives it', async () => {
    const user = await host();
    const guest = await discordMember(t, hangout.id);
    const release = killedDuring('addRole');
    const pending = assign(user.session, guest.id);
    await waitFor(async () => (await guestRows(user.id)).length === 1);
    vi.restoreAllMocks();
    expect(await hasGuestRole(guest.id)).toBe(false);
    expect((await guestRows(user.id))[0].state).toBe('assigning');

    // Just after the crash the record may still be on its way: left alone.
    await reconcileGuildGuests(t.ctx, hangout.id);
    expect(await hasGuestRole(guest.id)).toBe(false);
    await age(user.id);
    await reconcileGuildGuests(t.ctx, hangout.id);
    expect(await hasGuestRole(guest.id)).toBe(true);
    expect(await guestRows(user.id)).toMatchObject([{ state: 'active' }]);
    const audits = await rows(t, 'audit_log', "action = 'guest.role_restored' and target_id = $1", [
      guest.id,
    ]);
    expect(audits).toHaveLength(1);
    release();
    // The assign finishing late leaves the record active and the role given.
    expect((await pending).statusCode).toBe(200);
    expect(await guestRows(user.id)).toMatchObject([{ state: 'active' }]);
    expect(await hasGuestRole(guest.id)).toBe(true);
  });

  it("a crash after 'removing' was committed and before the role was taken: the reconciliation takes it", async () => {
    const user = await host();
    const guest = await discordMember(t, hangout.id);
    const res = await assign(user.session, guest.id);
    expect(res.statusCode).toBe(200);
    await botSeesRoles(t, hangout.id, guest.id, (r) => r.includes(roles.guestRole));
    const release = killedDuring('removeRole');
    const pending = t.inject({
      method: 'DELETE',
      url: `${base}/unassign/${res.json().id}`,
      session: user.session,
    });
    await waitFor(async () => (await guestRows(user.id))[0]?.state === 'removing');
    vi.restoreAllMocks();
    expect(await hasGuestRole(guest.id)).toBe(true);
    // Already gone for the host: not listed, the slot is free.
    const info = await t.inject({ method: 'GET', url: base, session: user.session });
    expect(info.json().guests).toEqual([]);

    await reconcileGuildGuests(t.ctx, hangout.id);
    expect(await hasGuestRole(guest.id)).toBe(false);
    expect(await guestRows(user.id)).toHaveLength(0);
    release();
    await pending;
  });

  it('a guest role given by hand, with no guest record, is kept by the reconciliation', async () => {
    const handGiven = await discordMember(t, hangout.id, { roles: [roles.guestRole] });
    const user = await host();
    const guest = await discordMember(t, hangout.id);
    expect((await assign(user.session, guest.id)).statusCode).toBe(200);
    await botSeesRoles(t, hangout.id, guest.id, (r) => r.includes(roles.guestRole));
    await botSeesRoles(t, hangout.id, handGiven.id, (r) => r.includes(roles.guestRole));
    await age(user.id);
    await reconcileGuildGuests(t.ctx, hangout.id);
    expect(await hasGuestRole(handGiven.id)).toBe(true);
    expect(await hasGuestRole(guest.id)).toBe(true);
    expect(await guestRows(user.id)).toMatchObject([{ state: 'active' }]);
  });

  it('Discord refusing the role deletes the record again, audit-logged', async () => {
    const user = await host();
    const guest = await discordMember(t, hangout.id);
    await t.control('POST', '/faults', {
      platform: 'discord',
      kind: 'server_error',
      pathContains: '/roles/',
    });
    const res = await assign(user.session, guest.id);
    expect(res.statusCode).toBeGreaterThanOrEqual(500);
    expect(await guestRows(user.id)).toHaveLength(0);
    const audits = await rows(t, 'audit_log', "action = 'guest.assign_failed' and target_id = $1", [
      guest.id,
    ]);
    expect(audits).toHaveLength(1);
  });
});
