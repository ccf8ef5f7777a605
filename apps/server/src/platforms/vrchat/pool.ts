import type { FastifyBaseLogger } from 'fastify';
import type { VrchatAccountPort, VrchatPort } from '../ports.js';
import { VrchatError } from './errors.js';
import type { VrchatPlatform } from './platform.js';
import type { VrchatState } from './status.js';

/** The product's VRChat accounts as the rest of the server sees them: one port, routed per group. */
export interface VrchatPool extends VrchatPort {
  /** Logs each account in, one after the other (VRChat counts logins from one address together). */
  start(): Promise<VrchatState>;
  /** The first account's state that is not 'ok' (naming the account when there are several), else the first's. */
  state(): VrchatState;
  /** Every account's state, in configured order. */
  accountStates(): { account: string; state: VrchatState }[];
  close(): Promise<void>;
}

export interface VrchatPoolOptions {
  /** The configured accounts in order, each with its own platform (session, login, budget, pacer). */
  accounts: { account: string; platform: VrchatPlatform }[];
  /** The account stored for a linked group (null: not linked, or linked before there were several). */
  groupAccount(groupId: string): Promise<string | null>;
  log: FastifyBaseLogger;
}

/** How long an account in trouble waits before a call tied to no group tries it again. */
const PROBE_AFTER_MS = 60_000;

type GroupMethod = Exclude<keyof VrchatAccountPort, 'searchUsers' | 'getUser' | 'currentUserId'>;

const groupMethodNames = [
  'getGroup',
  'getGroupMember',
  'listGroupMembers',
  'listGroupInvites',
  'getGroupRoles',
  'addGroupMemberRole',
  'removeGroupMemberRole',
  'inviteToGroup',
  'cancelGroupInvite',
  'joinGroup',
  'listJoinRequests',
  'respondJoinRequest',
  'kickGroupMember',
  'getGroupAuditLogs',
] as const satisfies readonly GroupMethod[];

// Every group method of the port is routed: a new one fails the type check until it is listed above.
type Unlisted = Exclude<GroupMethod, (typeof groupMethodNames)[number]>;
const allListed: [Unlisted] extends [never] ? true : never = true;
void allListed;

/**
 * Several bot accounts behind one VrchatPort. A group's calls go through the account that serves it (the
 * assignment stored when the group was linked; the first account for a group not linked, or linked before
 * there were several, or whose account is no longer configured). Calls tied to no group (user look-ups
 * and searches) take the logged-in accounts in turn, so they spread over every account's budget.
 */
export function createVrchatPool(opts: VrchatPoolOptions): VrchatPool {
  const { accounts, log } = opts;
  if (accounts.length === 0) throw new Error('createVrchatPool needs at least one account');
  const first = accounts[0] as (typeof accounts)[number];
  const byName = new Map(accounts.map((a) => [a.account.toLowerCase(), a]));
  const warnedMissing = new Set<string>();

  const named = (account: string) => byName.get(account.toLowerCase());

  const serving = async (groupId: string) => {
    const stored = await opts.groupAccount(groupId);
    if (!stored) return first;
    const found = named(stored);
    if (found) return found;
    if (!warnedMissing.has(stored)) {
      warnedMissing.add(stored);
      log.warn(
        { account: stored, groupId },
        'VRChat: a linked group is served by an account that is no longer configured; the first account serves it',
      );
    }
    return first;
  };

  let turn = 0;
  const lastProbe = new Map<string, number>();
  /**
   * Whether an account in trouble gets the next call tied to no group: its 429 pause is over, it only needs a
   * login (the call logs it in), or a minute passed since its trouble began or it was last tried. Without
   * this, an account whose trouble passed would stay out of turn in this process until a group call reached it.
   */
  const dueForProbe = ({ account, platform }: (typeof accounts)[number], now: number) => {
    const s = platform.state();
    if (s.status === 'rate_limited') return (Date.parse(s.rateLimitedUntil ?? '') || 0) <= now;
    if (s.status === 'logged_out') return true;
    const since = Math.max(Date.parse(s.since) || 0, lastProbe.get(account) ?? 0);
    return now - since >= PROBE_AFTER_MS;
  };
  /** The next account in turn that is logged in or due a probe (the first account when none is). */
  const anyAccount = () => {
    const now = Date.now();
    for (let i = 0; i < accounts.length; i++) {
      const candidate = accounts[(turn + i) % accounts.length] as (typeof accounts)[number];
      const ok = candidate.platform.state().status === 'ok';
      if (ok || dueForProbe(candidate, now)) {
        turn = (turn + i + 1) % accounts.length;
        if (!ok) lastProbe.set(candidate.account, now);
        return { ...candidate, probe: !ok };
      }
    }
    turn = (turn + 1) % accounts.length;
    return { ...first, probe: false };
  };
  /** A read tied to no group; a probe that fails is answered by a logged-in account instead. */
  const anyAccountRead = async <T>(read: (platform: VrchatPlatform) => Promise<T>): Promise<T> => {
    const chosen = anyAccount();
    if (!chosen.probe) return read(chosen.platform);
    try {
      return await read(chosen.platform);
    } catch (err) {
      const fallback = accounts.find((a) => a.platform.state().status === 'ok');
      if (!fallback) throw err;
      return read(fallback.platform);
    }
  };

  const routed = Object.fromEntries(
    groupMethodNames.map((name) => [
      name,
      async (groupId: string, ...rest: unknown[]) => {
        const { platform } = await serving(groupId);
        return (platform[name] as (...args: unknown[]) => unknown)(groupId, ...rest);
      },
    ]),
  ) as Pick<VrchatAccountPort, GroupMethod>;

  const accountStates = () => accounts.map((a) => ({ account: a.account, state: a.platform.state() }));
  const state = (): VrchatState => {
    const states = accountStates();
    const troubled = states.find((s) => s.state.status !== 'ok');
    if (!troubled) return first.platform.state();
    if (accounts.length === 1) return troubled.state;
    const lastError = troubled.state.lastError ?? troubled.state.status;
    return { ...troubled.state, lastError: `Account ${troubled.account}: ${lastError}` };
  };

  return {
    ...routed,
    accounts: () => accounts.map((a) => a.account),
    forAccount(account) {
      const found = named(account);
      if (!found) throw new VrchatError(503, `The VRChat account ${account} is not configured.`);
      return found.platform;
    },
    async accountOf(groupId) {
      return (await serving(groupId)).account;
    },
    async accountProfile(account) {
      const found = named(account);
      if (!found) throw new VrchatError(503, `The VRChat account ${account} is not configured.`);
      return { account: found.account, ...(await found.platform.self()) };
    },
    async accountUserIds() {
      const ids = await Promise.all(
        accounts.map((a) =>
          a.platform.self().then(
            (self) => self.userId,
            () => null,
          ),
        ),
      );
      return ids.filter((id): id is string => id !== null);
    },
    async currentUserId(groupId) {
      if (groupId === undefined) return first.platform.currentUserId();
      return (await serving(groupId)).platform.currentUserId();
    },
    requestsPerSecond: () => first.platform.requestsPerSecond(),
    searchUsers: (query, page) => anyAccountRead((p) => p.searchUsers(query, page)),
    getUser: (id) => anyAccountRead((p) => p.getUser(id)),

    async start() {
      for (const a of accounts) await a.platform.start();
      return state();
    },
    state,
    accountStates,
    async close() {
      await Promise.all(accounts.map((a) => a.platform.close()));
    },
  };
}
