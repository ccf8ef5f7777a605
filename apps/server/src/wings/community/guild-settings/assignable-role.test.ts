import { describe, expect, it } from 'vitest';
import type { DiscordGuildInfo } from '../../../platforms/ports.js';
import { assignableRoleProblem, roleChoiceProblem } from './assignable-role.js';

const MANAGE_ROLES = String(1n << 28n);
const ADMINISTRATOR = String(1n << 3n);
const role = (id: string, name: string, position: number, permissions = '0', managed = false) => ({
  id,
  name,
  position,
  color: 0,
  permissions,
  managed,
});
const guild: DiscordGuildInfo = {
  id: '1',
  name: 'Server',
  iconUrl: null,
  ownerId: '9',
  roles: [
    role('10', 'Staff', 5),
    role('11', 'Bot', 4, MANAGE_ROLES, true),
    role('12', 'Helper', 3, ADMINISTRATOR),
    role('13', 'Member', 2),
    role('14', 'Booster', 1, '0', true),
    role('1', '@everyone', 0),
  ],
};

describe('roleChoiceProblem', () => {
  it('refuses @everyone and roles the server does not have', () => {
    expect(roleChoiceProblem(guild, '1')).toBe('The @everyone role cannot be chosen.');
    expect(roleChoiceProblem(guild, '99')).toBe('Unknown role: 99');
    expect(roleChoiceProblem(guild, '10')).toBeNull();
  });
});

describe('assignableRoleProblem', () => {
  it('accepts a role below the bot’s highest role when the bot may manage roles', () => {
    expect(assignableRoleProblem(guild, ['11'], '13')).toBeNull();
  });

  it('names a role at or above the bot’s highest role', () => {
    expect(assignableRoleProblem(guild, ['11'], '10')).toBe(
      "The bot's role must be above Staff to manage it.",
    );
    expect(assignableRoleProblem(guild, ['12'], '12')).toBe(
      "The bot's role must be above Helper to manage it.",
    );
  });

  it('refuses integration roles, whatever their position', () => {
    expect(assignableRoleProblem(guild, ['11'], '14')).toBe(
      'Booster is managed by an integration and cannot be given to members.',
    );
  });

  it('asks for Manage Roles when no role of the bot grants it (Administrator does)', () => {
    expect(assignableRoleProblem(guild, [], '13')).toBe(
      'The bot needs the Manage Roles permission to change roles.',
    );
    expect(assignableRoleProblem(guild, ['12'], '13')).toBeNull();
  });

  it('refuses @everyone and unknown roles first', () => {
    expect(assignableRoleProblem(guild, ['11'], '1')).toBe('The @everyone role cannot be chosen.');
    expect(assignableRoleProblem(guild, ['11'], '99')).toBe('Unknown role: 99');
  });
});
