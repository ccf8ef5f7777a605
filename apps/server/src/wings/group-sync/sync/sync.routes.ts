import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { guildParams } from '../groups/groups.schemas.js';
import { previewSettingsChange } from './change-preview.js';
import { changePreview, proposedChange } from './change-preview.schemas.js';
import {
  heldDecision,
  heldDecisionResult,
  heldPageQuery,
  heldPageResult,
  syncPreview,
  syncQueued,
  syncStatus,
} from './sync.schemas.js';
import {
  decideHeldRemovals,
  getSyncStatus,
  listHeldRemovals,
  previewGuildSync,
  requestSyncNow,
} from './sync.service.js';

const route = routeSchemas({ tag: 'sync' });

/** The bot's sync of one server: status and warnings, the dry run, Sync now, and held removals. */
export async function syncRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/guilds/:guildId/sync',
    route({
      operationId: 'getSyncStatus',
      description:
        'Needs Admin. The last sync (when, how many actions applied and failed), a sync waiting or running now, when the scheduled one is due, the removals the circuit breaker holds, and the problems the bot cannot fix itself.',
      params: guildParams,
      response: { 200: syncStatus },
    }),
    async (req) => getSyncStatus(ctx, requireActor(req), req.params.guildId),
  );

  app.get(
    '/guilds/:guildId/sync/preview',
    route({
      operationId: 'previewSync',
      description:
        "Needs Admin. A dry run: what the next sync would do (counts per action, the first 50 actions, how long it takes at the platforms' pace), nothing applied.",
      params: guildParams,
      response: { 200: syncPreview },
    }),
    async (req) => previewGuildSync(ctx, requireActor(req), req.params.guildId),
  );

  app.post(
    '/guilds/:guildId/sync/preview',
    route({
      operationId: 'previewSettingsChange',
      description:
        'Needs Admin. What a settings change (auto roles, Groups feature, Auto Remove, a mapping in either direction) would make the bot do, planned by the sync itself: per role, who would get it and who would lose it; who would be invited or removed. Nothing is saved.',
      params: guildParams,
      body: proposedChange,
      response: { 200: changePreview },
    }),
    async (req) => previewSettingsChange(ctx, requireActor(req), req.params.guildId, req.body),
  );

  app.post(
    '/guilds/:guildId/sync',
    route({
      operationId: 'requestSync',
      description: 'Needs Admin. Queues a sync of this server now (collapsed with one already waiting).',
      params: guildParams,
      response: { 200: syncQueued },
    }),
    async (req) => requestSyncNow(ctx, requireActor(req), req.params.guildId),
  );

  app.get(
    '/guilds/:guildId/sync/held',
    route({
      operationId: 'listHeldRemovals',
      description:
        'Needs Admin. Every removal the circuit breaker holds awaiting a decision, a page at a time (oldest first; 50 a page unless pageSize says otherwise, at most 100).',
      params: guildParams,
      querystring: heldPageQuery,
      response: { 200: heldPageResult },
    }),
    async (req) => listHeldRemovals(ctx, requireActor(req), req.params.guildId, req.query),
  );

  app.post(
    '/guilds/:guildId/sync/held',
    route({
      operationId: 'decideHeldRemovals',
      description:
        "Needs Admin. For every removal the circuit breaker holds awaiting a decision: 'apply' has them carried out (re-checked by a sync job), 'discard' declines them (they stay held and are never applied, until the rules stop asking for them); 'review' brings the declined ones back for a decision.",
      params: guildParams,
      body: heldDecision,
      response: { 200: heldDecisionResult },
    }),
    async (req) => decideHeldRemovals(ctx, requireActor(req), req.params.guildId, req.body.decision),
  );
}
