import type { APIApplicationCommand } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { slashCommands } from './index.js';
import { sameCommands } from './same-commands.js';

const wanted = slashCommands.map((c) => c.definition);

/** The commands as Discord answers them after registration: ids, versions and defaults filled in. */
const registered = (): APIApplicationCommand[] =>
  wanted
    .map((d, i) => ({
      ...d,
      id: String(1000 + i),
      application_id: '1',
      version: '1',
      type: 1,
      default_member_permissions: null,
      name_localizations: null,
      description_localizations: null,
      nsfw: false,
      options: d.options?.map((o) => ({ ...o, required: o.required ?? false })),
    }))
    .reverse() as APIApplicationCommand[];

describe('sameCommands (register only when the definitions changed)', () => {
  it('finds Discord’s answer equal to the definitions, in any order and with defaults filled in', () => {
    expect(sameCommands(registered(), wanted)).toBe(true);
  });

  it('sees a missing, extra, renamed or redescribed command, and a changed option', () => {
    expect(sameCommands(registered().slice(1), wanted)).toBe(false);
    expect(sameCommands([...registered(), { ...registered()[0], name: 'extra' }], wanted)).toBe(false);
    const changed = registered();
    changed[0] = { ...changed[0], description: 'Something else' };
    expect(sameCommands(changed, wanted)).toBe(false);
    const whois = registered().map((c) =>
      c.name === 'whois' ? { ...c, options: c.options?.map((o) => ({ ...o, required: false })) } : c,
    ) as APIApplicationCommand[];
    expect(sameCommands(whois, wanted)).toBe(false);
    const everywhere = registered().map((c) => ({ ...c, contexts: [0, 1, 2] })) as APIApplicationCommand[];
    expect(sameCommands(everywhere, wanted)).toBe(false);
  });
});
