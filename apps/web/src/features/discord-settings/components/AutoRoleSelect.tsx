import { Select } from '@mantine/core';
import { givenRoleChoice } from '../../../lib/role-choice';
import type { RoleOption } from './RoleSelect';

/** The empty choice; role ids are digits, so it cannot be one. */
const NONE = 'none';

interface Props {
  label: string;
  description: string;
  roles: RoleOption[];
  value: string | null;
  onChange: (roleId: string | null) => void;
  disabled?: boolean;
}

/**
 * One role or none, for a setting the bot acts on across the server. A Mantine Select, not a native one: the
 * arrow keys move through the open list and only Enter or a click chooses, where a closed native select
 * changes its value (and fired a change) on every arrow key. @everyone is never a choice; a role the bot cannot
 * give shows disabled with the reason.
 */
export function AutoRoleSelect({ label, description, roles, value, onChange, disabled }: Props) {
  const choices = roles.filter((r) => r.name !== '@everyone');
  const data = [
    { value: NONE, label: choices.length === 0 ? 'No options' : 'None Selected' },
    ...choices.map(givenRoleChoice),
  ];
  // A role deleted on Discord still shows, so the stale choice is visible and can be cleared.
  if (value && !choices.some((r) => r.id === value)) data.push({ value, label: `Deleted role (${value})` });
  return (
    <Select
      label={label}
      description={description}
      data={data}
      value={value ?? NONE}
      allowDeselect={false}
      disabled={disabled}
      maw={420}
      onChange={(next) => {
        const roleId = !next || next === NONE ? null : next;
        if (roleId !== value) onChange(roleId);
      }}
    />
  );
}
