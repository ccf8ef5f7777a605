import { createHmac } from 'node:crypto';
import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import { auditLog, discordLogConfig, discordLogOutbox } from '../../../db/schema/index.js';
import type { AppContext } from '../../../kernel/context.js';
import type { LogEventType } from '../../../kernel/log-event-types.js';
import { DiscordError } from '../../../platforms/discord/errors.js';
import { actorDisplaynameSql } from '../audit-log/audit-log.query.js';
import { logEmbed } from './log-embed.js';

const BATCH = 25;
/** Posts per run at most; the rest waits for the next run (Discord allows about 5 posts per 5 s per channel). */
const MAX_PER_RUN = 200;
/**
 * A claimed row is invisible to other workers this long (a crashed worker's rows come back after it). Short
 * enough that a row posted by a worker that died before deleting it is retried while Discord still knows the
 * post's nonce (it checks "the past few minutes"), so the retry answers the message already made.
 */
const LEASE_SECONDS = 60;
/** After this many failed attempts a post is given up (with a warning). */
export const MAX_ATTEMPTS = 8;

/**
 * The nonce of an outbox row's post (Discord's limit is 25 characters): the same row always sends the same
 * one, and with `enforce_nonce` Discord makes a second post of it answer the first. Keyed with the server's
 * secret, so two installations sharing a bot never take each other's posts for their own.
 */
export function logPostNonce(secretKey: Buffer, outboxId: number): string {
  return createHmac('sha256', secretKey).update(`discord-log:${outboxId}`).digest('base64url').slice(0, 25);
}

/**
 * Rows posted whose delete failed (the database went away in between), per context: the next run deletes
 * them before anything else, so this process never posts them again.
 */
const postedNotDeleted = new WeakMap<AppContext, Set<number>>();

async function deletePostedRows(ctx: AppContext, owed: Set<number>) {
  if (owed.size === 0) return;
  const ids = [...owed];
  await remove(ctx, ids);
  for (const id of ids) owed.delete(id);
}

export type DeliveryProblem = 'channelGone' | 'cannotPost';

interface Claimed {
  id: number;
  guildId: string;
  channelId: string;
  auditId: number;
  eventType: string;
  attempts: number;
}

export interface DeliveryResult {
  posted: number;
  dropped: number;
  deferred: number;
}

/** Seconds to wait before attempt n+1: 15 s, 30 s, 1 min … up to an hour. */
export const retryDelaySeconds = (attempts: number) => Math.min(3600, 15 * 2 ** Math.max(0, attempts - 1));

/** Takes due rows for this worker in one statement (no transaction stays open while Discord is called). */
async function claimDue(ctx: AppContext): Promise<Claimed[]> {
  const res = await ctx.db.execute(sql`
    update discord_log_outbox
    set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
    where id in (
      select id from discord_log_outbox where next_attempt_at <= now()
      order by id limit ${BATCH} for update skip locked
    )
    returning id, guild_id, channel_id, audit_id, event_type, attempts`);
  return (res.rows as Record<string, unknown>[])
    .map((r) => ({
      id: Number(r.id),
      guildId: String(r.guild_id),
      channelId: String(r.channel_id),
      auditId: Number(r.audit_id),
      eventType: String(r.event_type),
      attempts: Number(r.attempts),
    }))
    .sort((a, b) => a.id - b.id);
}

async function entryOf(ctx: AppContext, auditId: number) {
  const [row] = await ctx.db
    .select({
      action: auditLog.action,
      actorId: auditLog.actorId,
      actorName: actorDisplaynameSql,
      targetId: auditLog.targetId,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(eq(auditLog.id, auditId));
  return row ? { ...row, createdAt: new Date(row.createdAt) } : null;
}

/** Discord's answer when the channel is gone (404) or closed to the bot (403): nothing to retry. */
function permanentProblem(err: unknown): DeliveryProblem | null {
  if (!(err instanceof DiscordError)) return null;
  if (err.status === 404) return 'channelGone';
  if (err.status === 403) return 'cannotPost';
  return null;
}

const remove = (ctx: AppContext, ids: number[]) =>
  ids.length ? ctx.db.delete(discordLogOutbox).where(inArray(discordLogOutbox.id, ids)) : undefined;

/** Drops every waiting post of the channel and records why, so the dialog can say so. */
async function dropChannel(ctx: AppContext, row: Claimed, problem: DeliveryProblem) {
  const dropped = await ctx.db
    .delete(discordLogOutbox)
    .where(eq(discordLogOutbox.channelId, row.channelId))
    .returning({ id: discordLogOutbox.id });
  await ctx.db
    .update(discordLogConfig)
    .set({ problem, problemAt: new Date() })
    .where(and(eq(discordLogConfig.guildId, row.guildId), eq(discordLogConfig.channelId, row.channelId)));
  ctx.log.warn(
    { guildId: row.guildId, channelId: row.channelId, problem, dropped: dropped.length },
    problem === 'channelGone'
      ? 'Discord logging: the log channel is gone; its posts were dropped'
      : 'Discord logging: the bot may not post in the log channel; its posts were dropped',
  );
  return dropped.length;
}

/**
 * A post went through: a problem recorded for this channel before it (posts dropped while the bot lacked
 * the permission) is over, so the dialog stops saying so. One that came after the post started stays.
 */
async function clearProblem(ctx: AppContext, row: Claimed, postStartedAt: Date) {
  await ctx.db
    .update(discordLogConfig)
    .set({ problem: null, problemAt: null })
    .where(
      and(
        eq(discordLogConfig.guildId, row.guildId),
        eq(discordLogConfig.channelId, row.channelId),
        isNotNull(discordLogConfig.problem),
        lt(discordLogConfig.problemAt, postStartedAt),
      ),
    );
}

/**
 * Posts what waits in the outbox, oldest first, one embed per audit entry. discord.js waits out Discord's
 * 429s per route; a channel that fails otherwise is skipped for this run and retried with backoff, one that
 * is gone (or closed to the bot) has its posts dropped with a warning. Safe to run on several workers.
 */
export async function deliverDiscordLogs(ctx: AppContext): Promise<DeliveryResult> {
  const result: DeliveryResult = { posted: 0, dropped: 0, deferred: 0 };
  const owed = postedNotDeleted.get(ctx) ?? new Set<number>();
  postedNotDeleted.set(ctx, owed);
  await deletePostedRows(ctx, owed);
  const gone = new Set<string>();
  const resting = new Map<string, number>();
  /** Channels a post went through in this run (their recorded problem is cleared once). */
  const working = new Set<string>();
  while (result.posted < MAX_PER_RUN) {
    const rows = await claimDue(ctx);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (gone.has(row.channelId)) continue;
      const wait = resting.get(row.channelId);
      if (wait !== undefined) {
        // Not tried: the attempt the claim counted is given back.
        await ctx.db
          .update(discordLogOutbox)
          .set({
            attempts: sql`${discordLogOutbox.attempts} - 1`,
            nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
          })
          .where(eq(discordLogOutbox.id, row.id));
        result.deferred++;
        continue;
      }
      const entry = await entryOf(ctx, row.auditId);
      if (!entry) {
        await remove(ctx, [row.id]);
        continue;
      }
      const postStartedAt = new Date();
      try {
        await ctx.discord.postEmbed(row.channelId, logEmbed(row.eventType as LogEventType, entry), {
          nonce: logPostNonce(ctx.config.secretKey, row.id),
        });
      } catch (err) {
        const problem = permanentProblem(err);
        if (problem) {
          gone.add(row.channelId);
          result.dropped += await dropChannel(ctx, row, problem);
        } else if (row.attempts >= MAX_ATTEMPTS) {
          ctx.log.warn({ err, guildId: row.guildId, auditId: row.auditId }, 'Discord logging: post given up');
          await remove(ctx, [row.id]);
          result.dropped++;
        } else {
          const delay = retryDelaySeconds(row.attempts);
          ctx.log.info(
            { err, channelId: row.channelId, delay },
            'Discord logging: post failed; retrying later',
          );
          resting.set(row.channelId, delay);
          await ctx.db
            .update(discordLogOutbox)
            .set({ nextAttemptAt: sql`now() + make_interval(secs => ${delay})` })
            .where(eq(discordLogOutbox.id, row.id));
          result.deferred++;
        }
        continue;
      }
      // Posted. Should the delete fail (the database went away), the next run of this process deletes the
      // row first; another worker that claims it after the lease sends the same nonce and posts nothing new.
      owed.add(row.id);
      await deletePostedRows(ctx, owed);
      result.posted++;
      if (!working.has(row.channelId)) {
        working.add(row.channelId);
        await clearProblem(ctx, row, postStartedAt);
      }
    }
    if (rows.length < BATCH) break;
  }
  return result;
}
