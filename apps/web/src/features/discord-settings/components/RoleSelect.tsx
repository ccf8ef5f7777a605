import { NativeSelect } from '@mantine/core';
import { givenRoleChoice, type RoleChoiceSource } from '../../../lib/role-choice';

export type RoleOption = RoleChoiceSource;

interface Props {
  label: string;
  description?: string;
  roles: RoleOption[];
  value: string | null;
  onChange: (roleId: string | null) => void;
  disabled?: boolean;
  /** What the empty choice reads: 'None Selected' for settings, 'Select...' in tables. */
  emptyLabel?: string;
  /** A role the bot gives: the roles it cannot give show disabled, with the reason. */
  given?: boolean;
  /** In a table whose column header shows the label: the label names the select without showing again. */
  labelInHeader?: boolean;
}

/** One role or none; @everyone is never a choice. Native, so keyboard and screen readers just work. */
export function RoleSelect({
  label,
  description,
  roles,
  value,
  onChange,
  disabled,
  emptyLabel = 'None Selected',
  given = false,
  labelInHeader = false,
}: Props) {
  const choices = roles.filter((r) => r.name !== '@everyone');
  const data = [
    { value: '', label: choices.length === 0 ? 'No options' : emptyLabel },
    ...choices.map((r) => (given ? givenRoleChoice(r) : { value: r.id, label: r.name })),
  ];
  // A role deleted on Discord still shows, so the stale choice is visible and can be cleared.
  if (value && !choices.some((r) => r.id === value)) data.push({ value, label: `Deleted role (${value})` });
  return (
    <NativeSelect
      label={labelInHeader ? undefined : label}
      aria-label={labelInHeader ? label : undefined}
      description={description}
      data={data}
      value={value ?? ''}
      disabled={disabled}
      onChange={(e) => onChange(e.currentTarget.value || null)}
    />
  );
}
