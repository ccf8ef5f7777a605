import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/app.js';
import { vrchatGroupIds, vrchatRoleIds, vrchatUserIds } from '../src/vrchat/index.js';
import { basic, call, login } from './vrchat-helpers.js';

let sim: RunningSimulator;
let bot: string;
const hangout = vrchatGroupIds.hangout;
const lumi = vrchatUserIds.Lumi;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vrchatRate: { capacity: 1000, perSecond: 1000 } });
});
beforeEach(async () => {
  await call(sim.url, 'POST', '/control/vrchat/reset');
  bot = await login(sim.url);
});
afterAll(() => sim.close());

describe('vrchat.com-like pages', () => {
  it('/home links every user and group', async () => {
    const res = await call(sim.url, 'GET', '/home');
    expect(res.status).toBe(200);
    expect(res.body).toContain(`/home/user/${lumi}`);
    expect(res.body).toContain(`/home/group/${hangout}`);
  });

  it('a person edits their bio on their profile page and the API shows it', async () => {
    const page = await call(sim.url, 'GET', `/home/user/${lumi}`);
    expect(page.body).toMatch(/<textarea name="bio" aria-label="Bio"/);
    expect(page.body).toMatch(/<button type="submit">Save<\/button>/);
    const saved = await call(sim.url, 'POST', `/home/user/${lumi}/bio`, {
      form: { bio: 'vrclink-ABC123 <b>hi</b>' },
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/home/user/${lumi}?saved=1`);
    const user = await call(sim.url, 'GET', `/users/${lumi}`, { cookie: bot });
    expect(user.body).toMatchObject({ bio: 'vrclink-ABC123 <b>hi</b>' });
    const after = await call(sim.url, 'GET', `/home/user/${lumi}?saved=1`);
    expect(after.body).toContain('vrclink-ABC123 &lt;b&gt;hi&lt;/b&gt;');
    expect(after.body).not.toContain('<b>hi</b>');
  });

  it('refuses bios over 512 characters', async () => {
    const res = await call(sim.url, 'POST', `/home/user/${lumi}/bio`, { form: { bio: 'x'.repeat(513) } });
    expect(res.status).toBe(400);
  });

  it('the owner edits the group description and it is audited', async () => {
    const page = await call(sim.url, 'GET', `/home/group/${hangout}`);
    expect(page.body).toMatch(/aria-label="Description"/);
    const saved = await call(sim.url, 'POST', `/home/group/${hangout}/description`, {
      form: { description: 'Hello' },
    });
    expect(saved.status).toBe(303);
    const group = await call(sim.url, 'GET', `/groups/${hangout}`, { cookie: bot });
    expect(group.body).toMatchObject({ description: 'Hello' });
    const log = await call(sim.url, 'GET', `/groups/${hangout}/auditLogs?eventTypes=group.update`, {
      cookie: bot,
    });
    expect((log.body as { totalCount: number }).totalCount).toBe(1);
  });

  it('404s for unknown users and groups', async () => {
    expect((await call(sim.url, 'GET', '/home/user/usr_nope')).status).toBe(404);
    expect((await call(sim.url, 'GET', '/home/group/grp_nope')).status).toBe(404);
  });

  it('serves the image URLs the API hands out', async () => {
    const user = (await call(sim.url, 'GET', `/users/${lumi}`, { cookie: bot })).body as {
      currentAvatarThumbnailImageUrl: string;
    };
    const img = await fetch(user.currentAvatarThumbnailImageUrl);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await img.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });
});

describe('/control/vrchat', () => {
  it('PATCH users/{id} changes what the API reports', async () => {
    const res = await call(sim.url, 'PATCH', `/control/vrchat/users/${lumi}`, {
      json: { ageVerificationStatus: '18+', ageVerified: true, bio: 'code-42', displayName: 'Lumi Bright' },
    });
    expect(res.status).toBe(200);
    const user = await call(sim.url, 'GET', `/users/${lumi}`, { cookie: bot });
    expect(user.body).toMatchObject({
      ageVerificationStatus: '18+',
      ageVerified: true,
      bio: 'code-42',
      displayName: 'Lumi Bright',
    });
    const bad = await call(sim.url, 'PATCH', `/control/vrchat/users/${lumi}`, {
      json: { ageVerificationStatus: 'adult' },
    });
    expect(bad.status).toBe(400);
    expect((await call(sim.url, 'GET', `/control/vrchat/users/${lumi}`)).body).toMatchObject({
      pastDisplayNames: [{ displayName: 'Lumi' }],
    });
  });

  it('POST users creates a user, optionally with a login', async () => {
    const res = await call(sim.url, 'POST', '/control/vrchat/users', {
      json: {
        displayName: 'Zed New',
        username: 'zed',
        password: 'zed-pw',
        ageVerificationStatus: '18+',
        ageVerified: true,
      },
    });
    expect(res.status).toBe(201);
    const id = (res.body as { id: string }).id;
    expect(id).toMatch(/^usr_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const me = await call(sim.url, 'GET', '/auth/user', { auth: basic('zed', 'zed-pw') });
    expect(me.body).toMatchObject({ id, displayName: 'Zed New', ageVerificationStatus: '18+' });
  });

  it('adds and removes group members as the owner, and files join requests', async () => {
    const dusk = vrchatUserIds['Dusk Walker'];
    const added = await call(sim.url, 'POST', `/control/vrchat/groups/${hangout}/members/${dusk}`, {
      json: { roleIds: [vrchatRoleIds.hangout.linked] },
    });
    expect(added.status).toBe(201);
    const member = await call(sim.url, 'GET', `/groups/${hangout}/members/${dusk}`, { cookie: bot });
    expect(member.body).toMatchObject({
      membershipStatus: 'member',
      roleIds: [vrchatRoleIds.hangout.linked],
    });
    expect((await call(sim.url, 'DELETE', `/control/vrchat/groups/${hangout}/members/${dusk}`)).status).toBe(
      204,
    );
    expect((await call(sim.url, 'GET', `/groups/${hangout}/members/${dusk}`, { cookie: bot })).body).toBe(
      null,
    );

    const request = await call(sim.url, 'POST', `/control/vrchat/groups/${hangout}/requests`, {
      json: { userId: dusk },
    });
    expect(request.status).toBe(201);
    const requests = await call(sim.url, 'GET', `/groups/${hangout}/requests`, { cookie: bot });
    expect((requests.body as { userId: string }[]).map((m) => m.userId)).toContain(dusk);
  });

  it("the group's invites and join requests page: accept a request, invite a user", async () => {
    const dusk = vrchatUserIds['Dusk Walker'];
    await call(sim.url, 'POST', `/control/vrchat/groups/${hangout}/requests`, { json: { userId: dusk } });
    const invitesPath = `/home/group/${hangout}/members/invites`;
    expect((await call(sim.url, 'GET', `/home/group/${hangout}`)).body).toContain(`href="${invitesPath}"`);
    const page = await call(sim.url, 'GET', invitesPath);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Join Requests');
    expect(page.body).toContain(`action="/home/group/${hangout}/members/requests/${dusk}"`);
    const accepted = await call(sim.url, 'POST', `/home/group/${hangout}/members/requests/${dusk}`, {
      form: { action: 'accept' },
    });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe(`${invitesPath}?done=1`);
    const member = await call(sim.url, 'GET', `/groups/${hangout}/members/${dusk}`, { cookie: bot });
    expect(member.body).toMatchObject({ membershipStatus: 'member' });

    const other = vrchatUserIds.Lumi;
    await call(sim.url, 'DELETE', `/control/vrchat/groups/${hangout}/members/${other}`);
    const invited = await call(sim.url, 'POST', invitesPath, { form: { userId: other } });
    expect(invited.status).toBe(303);
    const invites = await call(sim.url, 'GET', `/groups/${hangout}/invites`, { cookie: bot });
    expect((invites.body as { userId: string }[]).map((m) => m.userId)).toContain(other);
    expect((await call(sim.url, 'GET', invitesPath)).body).toContain(`/home/user/${other}`);
    expect((await call(sim.url, 'GET', '/home/group/grp_nope/members/invites')).status).toBe(404);
  });

  it('GET state summarises users and groups', async () => {
    const res = await call(sim.url, 'GET', '/control/vrchat/state');
    const body = res.body as { users: unknown[]; groups: { id: string; roles: unknown[] }[] };
    expect(body.users).toHaveLength(30);
    expect(body.groups.map((g) => g.id)).toEqual([vrchatGroupIds.hangout, vrchatGroupIds.danceClub]);
  });

  it('reset restores the seed', async () => {
    await call(sim.url, 'PATCH', `/control/vrchat/users/${lumi}`, { json: { bio: 'changed' } });
    await call(sim.url, 'POST', '/control/vrchat/reset');
    const user = await call(sim.url, 'GET', `/control/vrchat/users/${lumi}`);
    expect(user.body).toMatchObject({ bio: '' });
  });
});
