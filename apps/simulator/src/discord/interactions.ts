import { randomBytes } from 'node:crypto';
import { discordApp } from '../demo.js';
import { ControlError } from './errors.js';
import { channelObject, memberObject, roleObject, userObject } from './serialize.js';
import { newSnowflake } from './snowflake.js';
import type { DiscordState } from './state.js';
import type { CommandOption, InteractionOption, SimCommand, SimGuild, SimInteraction } from './types.js';

export interface InteractionRequest {
  guildId: string;
  userId: string;
  commandName: string;
  channelId?: string;
  /** Either Discord's option array or a `{name: value}` map; types come from the registered command. */
  options?: GivenOption[] | Record<string, string | number | boolean>;
}

/** An option as the control API accepts it (the type may be left out). */
export interface GivenOption {
  name: string;
  type?: number;
  value?: string | number | boolean;
  options?: GivenOption[];
}

const SUB_COMMAND = 1;
const SUB_COMMAND_GROUP = 2;

/** Guild commands shadow global ones of the same name, as in the Discord client. */
function findCommand(state: DiscordState, guildId: string, name: string): SimCommand | undefined {
  const all = [...state.commands.values()].filter((c) => c.type === 1 && c.name === name);
  return all.find((c) => c.guildId === guildId) ?? all.find((c) => c.guildId === null);
}

/** Fills in option types from the command definition and checks what the Discord client would enforce. */
function normalizeOptions(
  given: InteractionRequest['options'],
  defs: CommandOption[],
  path: string,
): InteractionOption[] {
  const list: GivenOption[] = Array.isArray(given)
    ? given
    : Object.entries(given ?? {}).map(([name, value]) => ({ name, value }));
  const out = list.map((opt) => {
    const def = defs.find((d) => d.name === opt.name);
    if (!def) throw new ControlError(400, `Option "${path}${opt.name}" is not defined on the command.`);
    const nested =
      def.type === SUB_COMMAND || def.type === SUB_COMMAND_GROUP
        ? { options: normalizeOptions(opt.options ?? [], def.options ?? [], `${path}${opt.name}.`) }
        : { value: opt.value };
    return { name: opt.name, type: def.type, ...nested };
  });
  if (!defs.some((d) => d.type === SUB_COMMAND || d.type === SUB_COMMAND_GROUP)) {
    for (const def of defs)
      if (def.required && !out.some((o) => o.name === def.name))
        throw new ControlError(400, `Required option "${path}${def.name}" is missing.`);
  }
  return out;
}

/** `data.resolved` for user, channel, role and mentionable options, as Discord sends it. */
function resolveOptions(state: DiscordState, guild: SimGuild, options: InteractionOption[]) {
  const resolved: Record<string, Record<string, unknown>> = {};
  const put = (kind: string, id: string, value: unknown) => {
    resolved[kind] ??= {};
    resolved[kind][id] = value;
  };
  const walk = (opts: InteractionOption[]) => {
    for (const o of opts) {
      if (o.options) walk(o.options);
      const id = String(o.value ?? '');
      if ((o.type === 6 || o.type === 9) && state.users.has(id)) {
        put('users', id, userObject(state.users.get(id)!));
        const member = guild.members.get(id);
        if (member) {
          const { user: _user, ...rest } = memberObject(state, member);
          put('members', id, { ...rest, permissions: state.permissionsOf(guild, id).toString() });
        }
      } else if ((o.type === 8 || o.type === 9) && guild.roles.has(id)) {
        put('roles', id, roleObject(guild.roles.get(id)!));
      } else if (o.type === 7 && guild.channels.has(id)) {
        put('channels', id, { ...channelObject(guild.channels.get(id)!), permissions: '0' });
      }
    }
  };
  walk(options);
  return Object.keys(resolved).length ? { resolved } : {};
}

/** Records a slash-command use by a member, ready to dispatch as INTERACTION_CREATE. */
export function createInteraction(state: DiscordState, req: InteractionRequest): SimInteraction {
  const guild = state.guilds.get(req.guildId);
  if (!guild) throw new ControlError(404, 'Unknown guild.');
  if (!state.isBotIn(guild)) throw new ControlError(409, 'The bot is not in this guild.');
  if (!guild.members.has(req.userId)) throw new ControlError(404, 'The user is not a member of this guild.');
  const channelId = req.channelId ?? [...guild.channels.keys()][0];
  if (!guild.channels.has(channelId)) throw new ControlError(404, 'Unknown channel in this guild.');
  const command = findCommand(state, guild.id, req.commandName);
  if (!command) throw new ControlError(404, `No chat-input command "${req.commandName}" is registered.`);
  const interaction: SimInteraction = {
    id: newSnowflake(),
    token: `aW50ZXJhY3Rpb24${randomBytes(48).toString('base64url')}`,
    applicationId: discordApp.clientId,
    guildId: guild.id,
    channelId,
    userId: req.userId,
    commandId: command.id,
    commandName: command.name,
    options: normalizeOptions(req.options, command.options, ''),
    createdAt: Date.now(),
    callback: null,
    original: null,
    followups: [],
    ephemeral: false,
    deliveredTo: 0,
  };
  state.interactions.set(interaction.id, interaction);
  return interaction;
}

/** The INTERACTION_CREATE payload (an APPLICATION_COMMAND interaction in a guild text channel). */
export function interactionPayload(state: DiscordState, i: SimInteraction) {
  const guild = state.guilds.get(i.guildId)!;
  const member = guild.members.get(i.userId)!;
  const command = state.commands.get(i.commandId);
  const memberPerms = state.permissionsOf(guild, i.userId).toString();
  return {
    id: i.id,
    application_id: i.applicationId,
    type: 2,
    token: i.token,
    version: 1,
    data: {
      id: i.commandId,
      name: i.commandName,
      type: 1,
      ...(i.options.length ? { options: i.options } : {}),
      ...(command?.guildId ? { guild_id: command.guildId } : {}),
      ...resolveOptions(state, guild, i.options),
    },
    guild_id: guild.id,
    guild: { id: guild.id, locale: 'en-US', features: [] },
    channel_id: i.channelId,
    channel: { ...channelObject(guild.channels.get(i.channelId)!), permissions: memberPerms },
    member: { ...memberObject(state, member), permissions: memberPerms },
    app_permissions: state.permissionsOf(guild, discordApp.botUserId).toString(),
    locale: state.users.get(i.userId)!.locale,
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': guild.id },
    context: 0,
    attachment_size_limit: 10_485_760,
  };
}

export function findByToken(state: DiscordState, token: string): SimInteraction | undefined {
  for (const i of state.interactions.values()) if (i.token === token) return i;
  return undefined;
}
