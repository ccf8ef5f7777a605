import { randomBytes } from 'node:crypto';
import { seedUserIds } from '@vrclink/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { guestRoles, guildGroups, vrchatLinks } from '../src/db/schema/index.js';
import { callSimulatorControl, waitFor } from '../src/platforms/testing.js';
import { createTestApp, signIn, type TestApp } from './app.js';

/**
 * Small factories for route tests against the simulator: people and roles are made through the
 * simulators' control APIs; guest-role entries and guild groups (no admin API yet) as database rows.
 */

const unique = () => randomBytes(3).toString('hex');

export interface VrchatUserFields {
  displayName?: string;
  bio?: string;
  ageVerificationStatus?: '18+' | 'hidden' | 'verified';
  ageVerified?: boolean;
}

/** A new VRChat user (hidden age, empty bio unless given). */
export async function vrchatUser(
  t: TestApp,
  fields: VrchatUserFields = {},
): Promise<{ id: string; displayName: string }> {
  const displayName = fields.displayName ?? `Tester ${unique()}`;
  const res = await t.control('POST', '/vrchat/users', {
    ageVerificationStatus: 'hidden',
    ageVerified: false,
    bio: '',
    ...fields,
    displayName,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id, displayName };
}

export async function updateVrchatUser(t: TestApp, id: string, fields: VrchatUserFields): Promise<void> {
  expect((await t.control('PATCH', `/vrchat/users/${id}`, fields)).status).toBe(200);
}

/** A new role (placed just above @everyone, so below the bot's role and manageable by it). */
export async function discordRole(t: TestApp, guildId: string, name = `Role ${unique()}`): Promise<string> {
  const res = await t.control('POST', `/discord/guilds/${guildId}/roles`, { name });
  expect(res.status).toBe(201);
  const roleId: string = res.body.id;
  await waitFor(async () => (await t.ctx.discord.getGuild(guildId))?.roles.some((r) => r.id === roleId));
  return roleId;
}

/** The member's role ids as the simulated Discord holds them (the source of truth, not the bot's cache). */
export async function simulatorRoles(t: TestApp, guildId: string, userId: string): Promise<string[] | null> {
  const res = await t.control('GET', `/discord/guilds/${guildId}`);
  const member = (res.body.members as { userId: string; roles: string[] }[]).find((m) => m.userId === userId);
  return member?.roles ?? null;
}

/** Waits until the bot's view of the member matches (gateway events arrive asynchronously). */
export async function botSeesRoles(
  t: TestApp,
  guildId: string,
  userId: string,
  check: (r: string[]) => boolean,
) {
  await waitFor(async () => {
    const member = await t.ctx.discord.getMember(guildId, userId);
    return member ? check(member.roles) : false;
  });
}

/** A new Discord user who joins the guild (with roles), once the bot has seen them join. */
export async function discordMember(
  t: TestApp,
  guildId: string,
  opts: { username?: string; roles?: string[] } = {},
): Promise<{ id: string; username: string }> {
  const username = opts.username ?? `member_${unique()}`;
  const res = await t.control('POST', `/discord/guilds/${guildId}/members`, {
    username,
    roles: opts.roles ?? [],
  });
  expect(res.status).toBe(201);
  const id: string = res.body.userId;
  await botSeesRoles(t, guildId, id, (roles) => (opts.roles ?? []).every((r) => roles.includes(r)));
  return { id, username };
}

/** A signed-in user who is also a member of the guild with the given roles. */
export async function signInMember(
  t: TestApp,
  guildId: string,
  opts: { username?: string; roles?: string[] } = {},
): Promise<{ id: string; session: string; username: string }> {
  const member = await discordMember(t, guildId, opts);
  return { ...(await signIn(t, { id: member.id, username: member.username })), username: member.username };
}

/**
 * A `beforeStart` for createTestApp: the simulated application without the Server Members intent (switched off
 * in the portal), so the bot starts without it.
 */
export async function withoutMembersIntent(simulatorUrl: string): Promise<void> {
  const res = await callSimulatorControl(simulatorUrl, 'PATCH', '/discord/application', {
    guildMembersIntent: false,
  });
  expect(res.status).toBe(200);
}

/**
 * A real sign-in up to Discord's answer: `GET /api/login` (at `url`, as `host`), then the seeded Discord user
 * presses Authorize on the simulator's consent page. Answers the authorize URL the login sent the browser to, the
 * state cookie and the URL Discord sends the browser back to (with `code` and `state`).
 */
export async function consentOnDiscord(
  t: TestApp,
  userId: string,
  opts: { url?: string; host?: string } = {},
): Promise<{ authorize: URL; stateCookie: string; back: URL }> {
  const headers = { host: opts.host ?? 'app.test' };
  const login = await t.inject({ method: 'GET', url: opts.url ?? '/api/login', headers });
  const stateCookie = login.cookies.find((c) => c.name === 'vrclink_oauth_state')?.value as string;
  const authorize = new URL(login.json().redirectUri);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('decision', 'authorize');
  form.set('user_id', userId);
  const res = await fetch(`${t.simulatorUrl}/oauth2/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  return { authorize, stateCookie, back: new URL(res.headers.get('location') as string) };
}

/** A real sign-in through the simulated Discord (consentOnDiscord, then the callback): the session cookie's value. */
export async function signInWithDiscord(t: TestApp, userId: string): Promise<string> {
  const { stateCookie, back } = await consentOnDiscord(t, userId);
  const callback = await t.inject({
    method: 'POST',
    url: '/api/login/callback',
    headers: { host: 'app.test' },
    cookies: { vrclink_oauth_state: stateCookie },
    payload: { code: back.searchParams.get('code'), state: back.searchParams.get('state') },
  });
  expect(callback.statusCode, callback.body).toBe(200);
  return callback.cookies.find((c) => c.name === 'vrclink_session')?.value as string;
}

/** The Linked Roles metadata the simulated Discord holds for a user (null: none). */
export const roleConnectionOf = async (t: TestApp, userId: string) =>
  (await t.control('GET', `/discord/users/${userId}/role-connection`)).body as {
    metadata: Record<string, string>;
  } | null;

/** The seeded platform admin, who owns the seeded Hangout on the simulated Discord (so is Admin there). */
export const signInHangoutOwner = (t: TestApp) =>
  signIn(t, { id: seedUserIds.admin, username: 'demo_admin' });

/** A test app with `options` (see createTestApp) and the Hangout's owner signed in; the caller closes it. */
export async function appWithHangoutOwner(
  options: Parameters<typeof createTestApp>[0],
): Promise<{ t: TestApp; owner: { id: string; session: string } }> {
  const t = await createTestApp(options);
  return { t, owner: await signInHangoutOwner(t) };
}

/**
 * For one describe block: a test app with `options` (which say the simulator's limits, see createTestApp) with
 * the Hangout's owner signed in, handed to `set` before the tests and closed after them.
 */
export function withOwnerApp(
  options: Parameters<typeof createTestApp>[0],
  set: (scene: { t: TestApp; owner: { id: string; session: string } }) => void,
): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    const scene = await appWithHangoutOwner(options);
    app = scene.t;
    set(scene);
  });
  afterAll(() => app?.close());
}

/** A call of one of the API's routes: method, URL and (for writes) a body. */
export type RouteCall = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object];

/** One test per route: a request without a session answers 401 with the sign-in message. */
export function itAnswers401WhenLoggedOut(app: () => TestApp, routes: RouteCall[]): void {
  it.each(routes)('%s %s answers 401 when logged out', async (method, url, payload) => {
    const res = await app().inject({ method, url, payload });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('You must be logged in to do this.');
  });
}

/**
 * Each route answers 401 when logged out, and 403 with the message `expected(method)` names to a member of
 * `guildId` granted nothing.
 */
export function itRefusesOutsiders(
  app: () => TestApp,
  guildId: string,
  routes: RouteCall[],
  expected: (method: RouteCall[0]) => string | RegExp,
): void {
  itAnswers401WhenLoggedOut(app, routes);
  it.each(routes)('%s %s answers 403 to a member without permissions', async (method, url, payload) => {
    const member = await signInMember(app(), guildId);
    const res = await app().inject({ method, url, payload, session: member.session });
    expect(res.statusCode).toBe(403);
    const message = expected(method);
    if (typeof message === 'string') expect(res.json().message).toBe(message);
    else expect(res.json().message).toMatch(message);
  });
}

/** A new world in the guild, made through its route by `user` (who may manage worlds); answers its id. */
export async function newWorld(t: TestApp, guildId: string, user: { session: string }): Promise<string> {
  const url = `/api/guilds/${guildId}/worlds`;
  const res = await t.inject({ method: 'PUT', url, session: user.session, payload: {} });
  return res.json().worlds.at(-1).id;
}

/** Changes a world's settings through its route as `user`, expecting success; answers the world list. */
export async function updateWorld(
  t: TestApp,
  world: { guildId: string; id: string },
  user: { session: string },
  payload: object,
  // biome-ignore lint/suspicious/noExplicitAny: tests read the route's JSON ad hoc
): Promise<any> {
  const url = `/api/guilds/${world.guildId}/worlds/${world.id}`;
  const res = await t.inject({ method: 'POST', url, session: user.session, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A guest-role entry: holders of `mainRoleId` may give `count` people `guestRoleId` (null: not set up yet). */
export async function guestRoleEntry(
  t: TestApp,
  entry: { guildId: string; mainRoleId: string | null; guestRoleId: string | null; count: number },
): Promise<string> {
  const [row] = await t.ctx.db.insert(guestRoles).values(entry).returning();
  return row.id;
}

/**
 * A new main role and a new guest role in the guild (named `names`, or made-up names), with the entry that lets
 * holders of the main role (`host`) give `count` people the guest role.
 */
export async function hostAndGuestRoles(
  t: TestApp,
  guildId: string,
  count: number,
  names: [host: string, guest: string] | [] = [],
): Promise<{ host: string; guestRole: string }> {
  const host = await discordRole(t, guildId, names[0]);
  const guestRole = await discordRole(t, guildId, names[1]);
  await guestRoleEntry(t, { guildId, mainRoleId: host, guestRoleId: guestRole, count });
  return { host, guestRole };
}

/** A VRChat group linked to a Discord server. */
export async function guildGroup(
  t: TestApp,
  group: {
    guildId: string;
    groupId: string;
    name: string;
    iconUrl?: string | null;
    /** Enable Groups feature (off for a new link). */
    enabled?: boolean;
    autoKick?: boolean;
    /** The bot account serving it (null: the first). */
    vrchatAccount?: string | null;
  },
): Promise<void> {
  await t.ctx.db.insert(guildGroups).values({ iconUrl: null, ...group });
}

/**
 * A VRChat link as the linking flow leaves it (verified = the bio code was seen). For tests of what links
 * feed (world data); the linking flow itself is tested through its routes.
 */
export async function vrchatLink(
  t: TestApp,
  link: {
    discordUserId: string;
    vrcUserId?: string;
    vrchatName: string;
    isVerified?: boolean;
    plus18?: boolean;
  },
): Promise<void> {
  await t.ctx.db.insert(vrchatLinks).values({
    discordUserId: link.discordUserId,
    vrcUserId: link.vrcUserId ?? `usr_${randomBytes(8).toString('hex')}`,
    vrchatName: link.vrchatName,
    isVerified: link.isVerified ?? true,
    ageVerification: link.plus18 ? 'Plus18' : 'Unverified',
  });
}

/** Rows of a table matching a SQL condition, e.g. `rows(t, 'link_events', 'discord_user_id = $1', [id])`. */
export async function rows(
  t: TestApp,
  table:
    | 'audit_log'
    | 'link_events'
    | 'vrchat_links'
    | 'verification_codes'
    | 'users'
    | 'guests'
    | 'group_invites'
    | 'guild_permissions'
    | 'group_role_cache'
    | 'guild_settings'
    | 'guest_roles'
    | 'guild_groups'
    | 'group_link_codes'
    | 'worlds'
    | 'sync_intents'
    | 'sync_temporary_grants'
    | 'guild_sync_state',
  where = 'true',
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  return (await t.ctx.database.executeSql(`select * from ${table} where ${where} order by 1`, params)).rows;
}
