import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireBot } from '../auth.js';
import { type CommandInput, parseCommand, parseCommandList, toCommand } from '../command-schema.js';
import { DiscordApiError, unknownCommand } from '../errors.js';
import { writeRateLimited } from '../ratelimit.js';
import { commandObject } from '../serialize.js';
import type { DiscordState } from '../state.js';
import type { SimCommand } from '../types.js';
import { botGuild, requireOwnApp } from './access.js';

type Params = { application_id: string; guild_id?: string; command_id?: string };

/** Global routes have no guild id; guild routes need the bot in that guild (else 50001, as Discord). */
function scope(state: DiscordState, req: FastifyRequest<{ Params: Params }>) {
  requireBot(state, req);
  requireOwnApp(req.params.application_id);
  const guildId = req.params.guild_id ?? null;
  if (guildId) botGuild(state, guildId);
  const list = () => [...state.commands.values()].filter((c) => c.guildId === guildId);
  return { guildId, applicationId: req.params.application_id, list };
}

function findCommand(state: DiscordState, guildId: string | null, id: string | undefined): SimCommand {
  const cmd = id ? state.commands.get(id) : undefined;
  if (!cmd || cmd.guildId !== guildId) throw unknownCommand();
  return cmd;
}

/** Discord: at most 100 chat-input, 15 user and 15 message commands per scope (global or one guild). */
const MAX_PER_TYPE: Record<number, number> = { 1: 100, 2: 15, 3: 15 };
/** Discord: 200 command creates per day per guild (and for the global scope). */
export const DAILY_CREATES = 200;
const DAY_MS = 86_400_000;

const maxCommandsReached = (max: number) =>
  new DiscordApiError(400, 30032, `Maximum number of application commands reached (${max})`);

export function registerCommandRoutes(api: FastifyInstance, state: DiscordState): void {
  /** Create times per scope (guild id or "global"), oldest first; a day is `timeScale` times shorter. */
  const creates = new Map<string, number[]>();
  /** Seconds until `count` more creates fit in the scope's day, or 0 when they fit now. */
  const createWait = (guildId: string | null, count: number): number => {
    const now = Date.now();
    const day = DAY_MS / state.timeScale;
    const times = (creates.get(guildId ?? 'global') ?? []).filter((t) => t > now - day);
    creates.set(guildId ?? 'global', times);
    if (times.length + count <= DAILY_CREATES) return 0;
    const freeAt = times[Math.min(times.length - 1, times.length + count - DAILY_CREATES - 1)] + day;
    return Math.max(0.001, (freeAt - now) / 1000);
  };
  const recordCreates = (guildId: string | null, count: number) => {
    const times = creates.get(guildId ?? 'global') ?? [];
    for (let i = 0; i < count; i++) times.push(Date.now());
    creates.set(guildId ?? 'global', times);
  };

  for (const base of ['/applications/:application_id', '/applications/:application_id/guilds/:guild_id']) {
    api.get<{ Params: Params }>(`${base}/commands`, async (req) =>
      scope(state, req).list().map(commandObject),
    );

    /** Bulk overwrite: same-named commands keep their ids, the rest are deleted. */
    api.put<{ Params: Params }>(`${base}/commands`, async (req, reply) => {
      const s = scope(state, req);
      const inputs = parseCommandList(req.body);
      const old = s.list();
      const isNew = (input: CommandInput) =>
        !old.some((c) => c.name === input.name && c.type === (input.type ?? 1));
      const created = inputs.filter(isNew).length;
      const wait = createWait(s.guildId, created);
      if (wait > 0) return writeRateLimited(reply, wait);
      recordCreates(s.guildId, created);
      for (const c of old) state.commands.delete(c.id);
      return inputs.map((input) => {
        const existing = old.find((c) => c.name === input.name && c.type === (input.type ?? 1));
        const cmd = toCommand(input, s, existing);
        state.commands.set(cmd.id, cmd);
        return commandObject(cmd);
      });
    });

    /** Creating a command whose name exists overwrites it (200) instead of adding one (201). */
    api.post<{ Params: Params }>(`${base}/commands`, async (req, reply) => {
      const s = scope(state, req);
      const input = parseCommand(req.body);
      const type = input.type ?? 1;
      const existing = s.list().find((c) => c.name === input.name && c.type === type);
      if (!existing) {
        const max = MAX_PER_TYPE[type] ?? 1;
        if (s.list().filter((c) => c.type === type).length >= max) throw maxCommandsReached(max);
        const wait = createWait(s.guildId, 1);
        if (wait > 0) return writeRateLimited(reply, wait);
        recordCreates(s.guildId, 1);
      }
      const cmd = toCommand(input, s, existing);
      state.commands.set(cmd.id, cmd);
      return reply.code(existing ? 200 : 201).send(commandObject(cmd));
    });

    api.get<{ Params: Params }>(`${base}/commands/:command_id`, async (req) => {
      const s = scope(state, req);
      return commandObject(findCommand(state, s.guildId, req.params.command_id));
    });

    api.patch<{ Params: Params }>(`${base}/commands/:command_id`, async (req) => {
      const s = scope(state, req);
      const cmd = findCommand(state, s.guildId, req.params.command_id);
      const merged: CommandInput = parseCommand({
        name: cmd.name,
        description: cmd.description || undefined,
        options: cmd.options,
        default_member_permissions: cmd.defaultMemberPermissions,
        contexts: cmd.contexts,
        integration_types: cmd.integrationTypes,
        type: cmd.type,
        nsfw: cmd.nsfw,
        name_localizations: cmd.nameLocalizations,
        description_localizations: cmd.descriptionLocalizations,
        ...(req.body as object),
      });
      const next = toCommand(merged, s, cmd);
      state.commands.set(next.id, next);
      return commandObject(next);
    });

    api.delete<{ Params: Params }>(`${base}/commands/:command_id`, async (req, reply) => {
      const s = scope(state, req);
      state.commands.delete(findCommand(state, s.guildId, req.params.command_id).id);
      return reply.code(204).send();
    });
  }
}
