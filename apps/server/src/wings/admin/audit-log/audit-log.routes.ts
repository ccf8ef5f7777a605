import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { snowflake } from '../../../http/params.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { auditSortFields, auditSortOrders } from './audit-log.query.js';
import { AUDIT_PAGE_SIZES, listAuditLog } from './audit-log.service.js';
import { AUDIT_DATE_RULE, parseAuditDate } from './parseAuditDate.js';

const route = routeSchemas({ tag: 'audit' });

/** A list given as `a,b` or as the parameter repeated. */
const list = z
  .union([z.string().max(2000), z.array(z.string().max(2000)).max(50)])
  .optional()
  .transform((v) =>
    (v === undefined ? [] : [v].flat())
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  );
const isoDate = z.string().refine((s) => parseAuditDate(s) !== null, AUDIT_DATE_RULE);

const auditLogEntry = z.object({
  id: z.string(),
  createdAt: z.string(),
  actorId: z.string().nullable(),
  actorDisplayname: z.string().nullable(),
  eventType: z.string(),
  /** The event type in words. */
  eventLabel: z.string(),
  targetId: z.string().nullable(),
  /** What the target is and its name now; null when the id names nothing this server still knows. */
  target: z
    .object({
      kind: z.enum(['member', 'vrchatAccount', 'role', 'world', 'group', 'apiKey', 'image']),
      name: z.string(),
    })
    .nullable(),
  description: z.string(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
z.globalRegistry.add(auditLogEntry, { id: 'AuditLogEntry' });

export async function auditLogRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/groups/audit_log/:guildId',
    route({
      operationId: 'getAuditLog',
      description:
        "Needs Admin. The server's audit trail: who changed what through the dashboard, keys and bot.",
      params: z.object({ guildId: snowflake }),
      querystring: z.object({
        page: z.coerce.number().int().min(1).max(1_000_000).default(1),
        /** A page's `nextCursor` or `previousCursor`: the page beside it, by keyset (then `page` is not read). */
        cursor: z.string().max(2000).optional(),
        pageSize: z.coerce
          .number()
          .int()
          .refine(
            (n) => (AUDIT_PAGE_SIZES as readonly number[]).includes(n),
            'must be 25, 50, 100, 250 or 1000',
          )
          .default(25),
        eventTypes: list,
        actorIds: list,
        targetIds: list,
        actorNames: list,
        startDate: isoDate.optional(),
        endDate: isoDate.optional(),
        sortBy: z.enum(auditSortFields).default('CreatedAt'),
        sortOrder: z.enum(auditSortOrders).default('Descending'),
        fullTextSearch: z.string().max(200).optional(),
      }),
      response: {
        200: z.object({
          auditLogs: z.array(auditLogEntry),
          totalCount: z.number().int(),
          /** The next page's `cursor`; null on the last page. */
          nextCursor: z.string().nullable(),
          /** The previous page's `cursor`; null on the first page. */
          previousCursor: z.string().nullable(),
          eventTypes: z.array(z.string()),
          /** Each of `eventTypes` in words. */
          eventLabels: z.record(z.string(), z.string()),
        }),
      },
    }),
    async (req) => listAuditLog(ctx, requireActor(req), req.params.guildId, req.query),
  );
}
