import { NativeSelect } from '@mantine/core';
import { givenRoleChoice, type RoleChoiceSource } from '../../../lib/role-choice';

export type MappingRoleOption = RoleChoiceSource;

interface RoleProps {
  label: string;
  roles: MappingRoleOption[];
  value: string | null;
  onChange: (roleId: string | null) => void;
  loading?: boolean;
  disabled?: boolean;
}

/** What the empty choice reads: 'Loading...', 'No options', 'Select...' (editable) or 'None Selected'. */
export function emptyChoiceLabel(opts: { loading?: boolean; count: number; disabled?: boolean }) {
  if (opts.loading) return 'Loading...';
  if (opts.count === 0) return 'No options';
  return opts.disabled ? 'None Selected' : 'Select...';
}

/**
 * One role or none. Native, so keyboard, phones and screen readers just work; the label is visually
 * hidden in a table (its column header says it) but still names the control.
 */
export function MappingRoleSelect({ label, roles, value, onChange, loading, disabled }: RoleProps) {
  const data = [
    { value: '', label: emptyChoiceLabel({ loading, count: roles.length, disabled }) },
    // A role the bot cannot give (marked by the server) shows disabled, with the reason.
    ...roles.map(givenRoleChoice),
  ];
  // A role deleted since (or no longer offered) still shows, so the stale choice is visible and can change.
  if (value && !roles.some((r) => r.id === value)) data.push({ value, label: `Unavailable role (${value})` });
  return (
    <NativeSelect
      aria-label={label}
      data={data}
      value={value ?? ''}
      disabled={disabled}
      miw={140}
      onChange={(e) => onChange(e.currentTarget.value || null)}
    />
  );
}

import type { DiscordToGroupMapping, GroupToDiscordMapping } from '../mappingDirections';

/** How each action either direction offers reads (the actions themselves come from the OpenAPI document). */
const actionLabels: Record<DiscordToGroupMapping['action'] | GroupToDiscordMapping['action'], string> = {
  None: 'None',
  Membership: 'Membership',
  NoMembership: 'No Membership',
  GrantRolePermanent: 'Grant Role (Permanent)',
  GrantRoleTemporary: 'Grant Role (Temporary)',
  RevokeRole: 'Revoke Role',
};

interface ActionProps<A extends string> {
  label: string;
  actions: readonly A[];
  value: A;
  onChange: (action: A) => void;
  disabled?: boolean;
}

export function MappingActionSelect<A extends string>({
  label,
  actions,
  value,
  onChange,
  disabled,
}: ActionProps<A>) {
  return (
    <NativeSelect
      aria-label={label}
      data={actions.map((a) => ({ value: a, label: actionLabels[a as keyof typeof actionLabels] ?? a }))}
      value={value}
      disabled={disabled}
      miw={170}
      onChange={(e) => onChange(e.currentTarget.value as A)}
    />
  );
}
