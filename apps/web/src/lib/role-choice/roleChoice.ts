/** Why the bot cannot give a Discord role, as the server marks it (`unavailable`). */
export type RoleUnavailable = 'managed' | 'aboveBot';

const reasons: Record<RoleUnavailable, string> = {
  managed: 'managed by an integration',
  aboveBot: "above the bot's highest role",
};

export interface RoleChoiceSource {
  id: string;
  name: string;
  unavailable?: RoleUnavailable | null;
}

/**
 * A role as a picker for a role the bot gives offers it: a role the bot cannot give stays in the list, disabled,
 * its reason in its label ("Moderator (above the bot's highest role)"), so nobody chooses it and fails on save.
 */
export function givenRoleChoice(role: RoleChoiceSource) {
  if (!role.unavailable) return { value: role.id, label: role.name };
  return { value: role.id, label: `${role.name} (${reasons[role.unavailable]})`, disabled: true };
}
