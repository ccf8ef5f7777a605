import type {
  APIApplicationCommand,
  APIApplicationCommandOption,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

type Definition = RESTPostAPIChatInputApplicationCommandsJSONBody | APIApplicationCommand;

/** An option as Discord compares it: defaults filled in, so a registered option equals its definition. */
function optionView(o: APIApplicationCommandOption): unknown {
  const x = o as APIApplicationCommandOption & {
    required?: boolean;
    choices?: { name: string; value: string | number }[];
    options?: APIApplicationCommandOption[];
  };
  return {
    type: x.type,
    name: x.name,
    description: x.description,
    required: x.required ?? false,
    choices: x.choices?.map((c) => [c.name, c.value]) ?? [],
    options: (x.options ?? []).map(optionView),
  };
}

function commandView(c: Definition): string {
  return JSON.stringify({
    type: c.type ?? 1,
    name: c.name,
    description: c.description ?? '',
    options: (c.options ?? []).map(optionView),
    permissions: c.default_member_permissions ?? null,
    contexts: [...(c.contexts ?? [])].sort(),
    integrationTypes: [...(c.integration_types ?? [])].sort(),
    nsfw: c.nsfw ?? false,
  });
}

/** Whether Discord already holds exactly these commands (in any order), so registering would change nothing. */
export function sameCommands(registered: Definition[], wanted: Definition[]): boolean {
  const views = (list: Definition[]) => list.map(commandView).sort();
  const [a, b] = [views(registered), views(wanted)];
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
