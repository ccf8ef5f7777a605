import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireBearer, requireBot } from '../auth.js';
import { invalidForm } from '../errors.js';
import type { DiscordState } from '../state.js';
import { parseBody } from '../validate.js';
import { requireOwnApp } from './access.js';

type AppParams = { Params: { application_id: string } };

const localizations = z.record(z.string(), z.string()).nullish();
const metadataSchema = z
  .array(
    z.object({
      type: z.number().int().min(1).max(8),
      key: z
        .string()
        .min(1)
        .max(50)
        .regex(/^[a-z0-9_]+$/),
      name: z.string().min(1).max(100),
      name_localizations: localizations,
      description: z.string().min(1).max(200),
      description_localizations: localizations,
    }),
  )
  .max(5);

const connectionSchema = z.object({
  platform_name: z.string().max(50).nullish(),
  platform_username: z.string().max(100).nullish(),
  metadata: z.record(z.string(), z.union([z.string().max(100), z.number()])).nullish(),
});

const BOOLEAN_TYPES = [7, 8];
const DATETIME_TYPES = [5, 6];

/** Values must suit their metadata record's type: integers, ISO8601 datetimes, or booleans as 0/1. */
function checkValues(state: DiscordState, metadata: Record<string, string>): void {
  const errors: Record<string, [string, string]> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const record = state.roleConnectionMetadata.find((m) => m.key === key);
    if (!record) errors[`metadata.${key}`] = ['BASE_TYPE_INVALID', `Unknown metadata key "${key}".`];
    else if (
      BOOLEAN_TYPES.includes(record.type)
        ? !/^[01]$/.test(value)
        : DATETIME_TYPES.includes(record.type)
          ? Number.isNaN(Date.parse(value))
          : !/^-?\d+$/.test(value)
    )
      errors[`metadata.${key}`] = ['BASE_TYPE_INVALID', `Invalid value for metadata type ${record.type}.`];
  }
  if (Object.keys(errors).length) throw invalidForm(errors);
}

export function registerRoleConnectionRoutes(api: FastifyInstance, state: DiscordState): void {
  api.get<AppParams>('/applications/:application_id/role-connections/metadata', async (req) => {
    requireBot(state, req);
    requireOwnApp(req.params.application_id);
    return state.roleConnectionMetadata;
  });

  api.put<AppParams>('/applications/:application_id/role-connections/metadata', async (req) => {
    requireBot(state, req);
    requireOwnApp(req.params.application_id);
    const records = parseBody(metadataSchema, req.body);
    const keys = records.map((r) => r.key);
    const dup = keys.findIndex((k, i) => keys.indexOf(k) !== i);
    if (dup >= 0)
      throw invalidForm({ [`${dup}.key`]: ['BASE_TYPE_INVALID', 'Metadata keys must be unique.'] });
    state.roleConnectionMetadata = records.map((r) => ({
      type: r.type,
      key: r.key,
      name: r.name,
      description: r.description,
      ...(r.name_localizations ? { name_localizations: r.name_localizations } : {}),
      ...(r.description_localizations ? { description_localizations: r.description_localizations } : {}),
    }));
    return state.roleConnectionMetadata;
  });

  const path = '/users/@me/applications/:application_id/role-connection';
  const view = (userId: string) => {
    const c = state.roleConnections.get(userId);
    return {
      platform_name: c?.platformName ?? null,
      platform_username: c?.platformUsername ?? null,
      metadata: c?.metadata ?? {},
    };
  };

  api.get<AppParams>(path, async (req) => {
    const caller = requireBearer(state, req, 'role_connections.write');
    requireOwnApp(req.params.application_id);
    return view(caller.userId);
  });

  /** Replaces the connection: omitted fields are cleared, as Discord's PUT does. */
  api.put<AppParams>(path, async (req) => {
    const caller = requireBearer(state, req, 'role_connections.write');
    requireOwnApp(req.params.application_id);
    const body = parseBody(connectionSchema, req.body);
    const metadata = Object.fromEntries(Object.entries(body.metadata ?? {}).map(([k, v]) => [k, String(v)]));
    checkValues(state, metadata);
    state.roleConnections.set(caller.userId, {
      platformName: body.platform_name ?? null,
      platformUsername: body.platform_username ?? null,
      metadata,
    });
    return view(caller.userId);
  });

  api.delete<AppParams>(path, async (req, reply) => {
    const caller = requireBearer(state, req, 'role_connections.write');
    requireOwnApp(req.params.application_id);
    state.roleConnections.delete(caller.userId);
    return reply.code(204).send();
  });
}
