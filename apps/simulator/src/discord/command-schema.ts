import { z } from 'zod';
import { invalidForm } from './errors.js';
import { newSnowflake } from './snowflake.js';
import type { CommandOption, SimCommand } from './types.js';
import { parseBody } from './validate.js';

/** Discord's command/option name rule (docs: Application Commands → naming). */
const NAME_RE = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const CHAT_INPUT = 1;

const localizations = z.record(z.string(), z.string()).nullish();

const optionSchema: z.ZodType<CommandOption> = z.lazy(() =>
  z.looseObject({
    type: z.number().int().min(1).max(11),
    name: z.string().min(1).max(32),
    description: z.string().min(1).max(100),
    required: z.boolean().optional(),
    choices: z
      .array(
        z.object({ name: z.string().min(1).max(100), value: z.union([z.string().max(100), z.number()]) }),
      )
      .max(25)
      .optional(),
    options: z.array(optionSchema).max(25).optional(),
  }),
);

export const commandSchema = z.object({
  name: z.string().min(1).max(32),
  name_localizations: localizations,
  description: z.string().max(100).optional(),
  description_localizations: localizations,
  options: z.array(optionSchema).max(25).optional(),
  default_member_permissions: z.string().regex(/^\d+$/).nullish(),
  dm_permission: z.boolean().nullish(),
  contexts: z.array(z.number().int().min(0).max(2)).nullish(),
  integration_types: z.array(z.number().int().min(0).max(1)).nullish(),
  type: z.number().int().min(1).max(4).optional(),
  nsfw: z.boolean().optional(),
});
export type CommandInput = z.infer<typeof commandSchema>;

/** Rules zod cannot express: names, per-type description rules, required-before-optional. */
function checkSemantics(cmd: CommandInput, prefix: string): Record<string, [string, string]> {
  const errors: Record<string, [string, string]> = {};
  const type = cmd.type ?? CHAT_INPUT;
  const p = (s: string) => (prefix ? `${prefix}.${s}` : s);
  if (type === CHAT_INPUT && (!NAME_RE.test(cmd.name) || cmd.name !== cmd.name.toLowerCase()))
    errors[p('name')] = ['APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid'];
  if (type === CHAT_INPUT && !cmd.description)
    errors[p('description')] = ['BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.'];
  if (type !== CHAT_INPUT && cmd.description)
    errors[p('description')] = [
      'APPLICATION_COMMAND_INVALID_DESCRIPTION',
      'Context menu commands cannot have description',
    ];
  const walk = (options: CommandOption[] | undefined, path: string) => {
    let sawOptional = false;
    options?.forEach((o, i) => {
      const at = `${path}.${i}`;
      if (!NAME_RE.test(o.name) || o.name !== o.name.toLowerCase())
        errors[`${at}.name`] = ['APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid'];
      if (o.required && sawOptional)
        errors[`${at}.required`] = [
          'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          'Required options must be placed before non-required options',
        ];
      if (!o.required) sawOptional = true;
      walk(o.options, `${at}.options`);
    });
  };
  walk(cmd.options, p('options'));
  return errors;
}

export function parseCommand(body: unknown): CommandInput {
  const cmd = parseBody(commandSchema, body);
  const errors = checkSemantics(cmd, '');
  if (Object.keys(errors).length) throw invalidForm(errors);
  return cmd;
}

/** Bulk overwrite payload: ≤100 chat-input, ≤15 user, ≤15 message commands, names unique per type. */
export function parseCommandList(body: unknown): CommandInput[] {
  const list = parseBody(z.array(commandSchema).max(130), body);
  const errors: Record<string, [string, string]> = {};
  const seen = new Set<string>();
  const perType = new Map<number, number>();
  list.forEach((cmd, i) => {
    Object.assign(errors, checkSemantics(cmd, String(i)));
    const type = cmd.type ?? CHAT_INPUT;
    const key = `${type}:${cmd.name}`;
    if (seen.has(key))
      errors[`${i}.name`] = [
        'APPLICATION_COMMANDS_DUPLICATE_NAME',
        `Application command names must be unique`,
      ];
    seen.add(key);
    perType.set(type, (perType.get(type) ?? 0) + 1);
  });
  if ((perType.get(1) ?? 0) > 100 || (perType.get(2) ?? 0) > 15 || (perType.get(3) ?? 0) > 15)
    errors._root = ['BASE_TYPE_MAX_LENGTH', 'Maximum number of application commands reached'];
  if (Object.keys(errors).length) throw invalidForm(errors);
  return list;
}

/** Builds (or, with `existing`, rebuilds keeping the id) a stored command; the version changes on every write. */
export function toCommand(
  input: CommandInput,
  where: { applicationId: string; guildId: string | null },
  existing?: SimCommand,
): SimCommand {
  return {
    id: existing?.id ?? newSnowflake(),
    applicationId: where.applicationId,
    guildId: where.guildId,
    version: newSnowflake(),
    type: input.type ?? CHAT_INPUT,
    name: input.name,
    description: input.description ?? '',
    options: input.options ?? [],
    defaultMemberPermissions: input.default_member_permissions ?? null,
    contexts: input.contexts ?? (where.guildId ? null : [0, 1, 2]),
    integrationTypes: input.integration_types ?? [0],
    nsfw: input.nsfw ?? false,
    nameLocalizations: input.name_localizations ?? null,
    descriptionLocalizations: input.description_localizations ?? null,
  };
}
