import { and, asc, count, eq, sql } from 'drizzle-orm';
import { apiKeys } from '../../../db/schema/index.js';
import { type Actor, actorId } from '../../../kernel/actor.js';
import { audit } from '../../../kernel/audit.js';
import type { AppContext } from '../../../kernel/context.js';
import { randomToken, sha256 } from '../../../kernel/crypto.js';
import { conflict, invalid, missing } from '../../../kernel/errors.js';
import { deleteAudited } from '../../../kernel/rows.js';
import { requireGuildPermission } from '../permissions/access.service.js';
import type { GuildPermission } from '../permissions/guild-permissions.js';
import { API_KEY_PREFIX } from './api-key-actor.js';

export const MAX_API_KEYS_PER_GUILD = 25;
/** A key can be made for at most a year; the dashboard proposes 30 days. */
export const MAX_API_KEY_DAYS = 366;
export const NAME_REQUIRED = 'Please enter a name for the API key.';
export const PERMISSION_REQUIRED = 'Select at least one permission.';
export const KEY_NOT_FOUND = 'API key not found.';

type ApiKeyRow = typeof apiKeys.$inferSelect;

const toApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  createdOn: k.createdOn.toISOString(),
  validUntil: k.validUntil.toISOString(),
  permissions: k.permissions as GuildPermission[],
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

export async function listApiKeys(ctx: AppContext, actor: Actor, guildId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.guildId, guildId))
    .orderBy(asc(apiKeys.createdOn), asc(apiKeys.id));
  return { apiKeys: rows.map(toApiKey) };
}

/** Makes a key; its token is answered this once and never again. Keys cannot hold Admin. */
export async function createApiKey(
  ctx: AppContext,
  actor: Actor,
  guildId: string,
  input: { name: string; permissions: GuildPermission[]; validUntil: Date },
) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const name = input.name.trim();
  if (!name) throw invalid(NAME_REQUIRED);
  const permissions = [...new Set(input.permissions)];
  if (permissions.length === 0) throw invalid(PERMISSION_REQUIRED);
  if (permissions.includes('Admin'))
    throw invalid('An API key cannot be given the Administrator permission.');
  const days = (input.validUntil.getTime() - Date.now()) / 86_400_000;
  if (days <= 0) throw invalid('The expiry date must be in the future.');
  if (days > MAX_API_KEY_DAYS) throw invalid(`An API key can be valid for at most ${MAX_API_KEY_DAYS} days.`);
  const token = `${API_KEY_PREFIX}${randomToken()}`;
  const row = await ctx.db.transaction(async (tx) => {
    // Serialised per server (as worlds and guest roles are) so concurrent creates cannot pass the cap together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api_keys:${guildId}`}))`);
    const [{ n }] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.guildId, guildId));
    if (n >= MAX_API_KEYS_PER_GUILD)
      throw conflict(`A server can have at most ${MAX_API_KEYS_PER_GUILD} API keys.`);
    const [created] = await tx
      .insert(apiKeys)
      .values({
        guildId,
        name,
        permissions,
        tokenHash: sha256(token),
        createdBy: actorId(actor),
        validUntil: input.validUntil,
      })
      .returning();
    await audit(tx, {
      action: 'api_key.create',
      actor,
      guildId,
      targetId: created.id,
      details: { name, permissions, validUntil: input.validUntil.toISOString() },
    });
    return created;
  });
  return { ...toApiKey(row), token };
}

export async function deleteApiKey(ctx: AppContext, actor: Actor, guildId: string, keyId: string) {
  await requireGuildPermission(ctx, actor, guildId, 'Admin');
  const where = and(eq(apiKeys.guildId, guildId), eq(apiKeys.id, keyId));
  const removed = await deleteAudited(ctx.db, apiKeys, where, (row) => ({
    action: 'api_key.delete',
    actor,
    guildId,
    targetId: keyId,
    details: { name: row.name },
  }));
  if (!removed) throw missing(KEY_NOT_FOUND);
}
