import { RESTJSONErrorCodes } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client.js';
import { metrics } from '../../../observability/metrics.js';
import { discordCode } from '../../../platforms/discord/errors.js';
import type { DiscordMemberSource } from '../../../platforms/ports.js';
import {
  deleteUnconfirmedExcept,
  getSync,
  knownLinkedUserIds,
  linkedMembers,
  linkedOnlyGuildIds,
  linkedUserIds,
  markLeft,
  recountTotals,
  type SyncRow,
  saveSync,
  upsertMembers,
} from './member-mirror.store.js';

/** What the mirror needs: the database, a logger and (where platforms run) Discord's member source. */
export interface MirrorDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** Absent where no platforms were started: the mirror is then read as it is. */
  source?: DiscordMemberSource;
}

/** Linked members fetched one by one at once (REST; discord.js queues behind Discord's limits). */
const LINKED_CONCURRENCY = 4;

interface FillSlot {
  running: Promise<void>;
  queued?: Promise<void>;
}
/** Fills in flight per database (several test apps may share a process) and guild. */
const inFlight = new WeakMap<Db, Map<string, FillSlot>>();

/**
 * Brings one guild's mirror in line with Discord: every member (Guild Members intent), or the linked
 * members one by one without it. One fill per guild at a time; asking during a fill queues exactly one
 * more (so changes made while the first ran are seen), and further asks join that one.
 */
export function fillGuild(deps: MirrorDeps, guildId: string): Promise<void> {
  const fills = inFlight.get(deps.db) ?? new Map<string, FillSlot>();
  inFlight.set(deps.db, fills);
  const slot = fills.get(guildId);
  if (!slot) return startFill(fills, deps, guildId);
  slot.queued ??= slot.running.catch(() => {}).then(() => startFill(fills, deps, guildId));
  return slot.queued;
}

function startFill(fills: Map<string, FillSlot>, deps: MirrorDeps, guildId: string): Promise<void> {
  const slot: FillSlot = { running: Promise.resolve() };
  slot.running = runFill(deps, guildId).finally(() => {
    if (fills.get(guildId) === slot) fills.delete(guildId);
  });
  fills.set(guildId, slot);
  return slot.running;
}

/** The guild's sync state once it has been filled at least once (filling it now if it never was). */
export async function ensureFilled(deps: MirrorDeps, guildId: string): Promise<SyncRow | undefined> {
  const sync = await getSync(deps.db, guildId);
  if (sync?.filledAt || !deps.source) return sync;
  await fillGuild(deps, guildId);
  return getSync(deps.db, guildId);
}

/** What one fill did: its mode (as it ended), members Discord listed, rows it wrote and deleted. */
interface FillResult {
  mode: 'full' | 'linked';
  members: number;
  written: number;
  deleted: number;
}

async function runFill(deps: MirrorDeps, guildId: string): Promise<void> {
  const source = deps.source;
  if (!source) return;
  const started = Date.now();
  const full = await wantsFullMode(source);
  const result = full ? await fillAll(deps, source, guildId) : await fillLinked(deps, source, guildId);
  const seconds = (Date.now() - started) / 1000;
  metrics.memberMirrorFill.observe({ mode: result.mode }, seconds);
  deps.log.info({ guildId, ...result, ms: Date.now() - started }, 'Members: mirror filled');
}

/**
 * Full mode needs member events, so it follows the gateway's intents where this process holds the
 * gateway, and Discord's application flags elsewhere (the bot process identifies by the same flags).
 */
async function wantsFullMode(source: DiscordMemberSource): Promise<boolean> {
  if (source.gatewayHasMembersIntent()) return true;
  return source.membersIntentAvailable();
}

/**
 * Every member: op 8 chunks over the gateway, or REST pages when the gateway cannot answer now. Only rows
 * that differ from Discord's answer are written (a refill after a new session rewrites nothing that is
 * still right); the members it confirmed are remembered, and every other row older than the fill goes.
 */
async function fillAll(deps: MirrorDeps, source: DiscordMemberSource, guildId: string): Promise<FillResult> {
  const seenAt = new Date();
  let confirmed = new Set<string>();
  let written = 0;
  const write = async (members: Parameters<typeof upsertMembers>[2]) => {
    written += await upsertMembers(deps.db, guildId, members, seenAt, { onlyChanged: true });
    for (const m of members) confirmed.add(m.userId);
  };
  try {
    if (!source.gatewayHasMembersIntent()) throw new Error('no gateway with the Guild Members intent here');
    await source.streamAllMembers(guildId, write);
  } catch (err) {
    // Rate limited (once per guild per 30 s), disconnected, or no gateway here: REST has no such rule.
    deps.log.debug({ err, guildId }, 'Members: filling over REST instead of the gateway');
    confirmed = new Set();
    try {
      await source.pageAllMembers(guildId, write);
    } catch (restErr) {
      // The intent was switched off meanwhile: keep the linked members instead.
      if (discordCode(restErr) === RESTJSONErrorCodes.MissingAccess) return fillLinked(deps, source, guildId);
      throw restErr;
    }
  }
  const deleted = await deleteUnconfirmedExcept(deps.db, guildId, seenAt, confirmed);
  // Counted, not the chunks' total: joins and leaves seen during the fill are in the rows already.
  const memberCount = await recountTotals(deps.db, guildId);
  await saveSync(deps.db, guildId, { mode: 'full', memberCount, filledAt: new Date() });
  return { mode: 'full', members: confirmed.size, written, deleted };
}

/**
 * Without the Guild Members intent: the linked users known to be members of this server (the last fill,
 * events, single lookups), asked for one by one (no privileged intent), so a server costs its own linked
 * members, not every link of the deployment. Only a server never filled asks for every link once, to
 * find its linked members; a user who links later is looked up in every server then (`memberLinked`).
 */
async function fillLinked(
  deps: MirrorDeps,
  source: DiscordMemberSource,
  guildId: string,
): Promise<FillResult> {
  const seenAt = new Date();
  const sync = await getSync(deps.db, guildId);
  const ids = sync?.filledAt ? await knownLinkedUserIds(deps.db, guildId) : await linkedUserIds(deps.db);
  const confirmed = new Set<string>();
  let written = 0;
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const userId = ids[next++];
      const member = await source.fetchMember(guildId, userId);
      if (member) {
        written += await upsertMembers(deps.db, guildId, [member], seenAt, { onlyChanged: true });
        confirmed.add(userId);
      } else if (await markLeft(deps.db, guildId, userId, seenAt)) written++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(LINKED_CONCURRENCY, ids.length) }, worker));
  const deleted = await deleteUnconfirmedExcept(deps.db, guildId, seenAt, confirmed);
  await recountTotals(deps.db, guildId);
  const memberCount = (await source.memberCount(guildId)) ?? confirmed.size;
  await saveSync(deps.db, guildId, { mode: 'linked', memberCount, filledAt: new Date() });
  return { mode: 'linked', members: confirmed.size, written, deleted };
}

/** A linked user's memberships where the mirror keeps linked members only (after linking, say). */
export async function refreshLinkedUser(deps: MirrorDeps, guildIds: string[], userId: string): Promise<void> {
  const source = deps.source;
  if (!source) return;
  // One query for which servers keep linked members only, not one per server the bot is in.
  const linkedOnly = await linkedOnlyGuildIds(deps.db, guildIds);
  for (const guildId of guildIds) {
    if (!linkedOnly.has(guildId)) continue;
    const seenAt = new Date();
    const member = await source.fetchMember(guildId, userId);
    if (member) await upsertMembers(deps.db, guildId, [member], seenAt);
    else await markLeft(deps.db, guildId, userId, seenAt);
  }
}

/** Linked members re-read at once before a sync (REST; discord.js queues them behind Discord's limits). */
const SYNC_REFRESH_CONCURRENCY = 4;

/**
 * Before a sync where the mirror keeps linked members only (no Server Members intent, so no member events):
 * when the intent is on again, the mirror is filled in full now (`reconnect` first lets this process's
 * gateway identify with it, if it holds one); otherwise the linked members' current roles are read from
 * Discord one by one, so a role change reaches the group at this sync rather than at the 6-hourly fill.
 */
export async function freshenLinkedMirror(
  deps: MirrorDeps,
  guildId: string,
  reconnect?: () => Promise<unknown>,
): Promise<void> {
  const source = deps.source;
  if (!source) return;
  const sync = await getSync(deps.db, guildId);
  if (sync?.mode !== 'linked') return;
  if (await source.membersIntentAvailable()) {
    await reconnect?.();
    await fillGuild(deps, guildId);
    return;
  }
  const ids = (await linkedMembers(deps.db, guildId)).map((r) => r.member.userId);
  const seenAt = new Date();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const userId = ids[next++];
      const member = await source.fetchMember(guildId, userId);
      if (member) await upsertMembers(deps.db, guildId, [member], seenAt);
      else await markLeft(deps.db, guildId, userId, seenAt);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_REFRESH_CONCURRENCY, ids.length) }, worker));
}
