import { Button, Group, Paper } from '@mantine/core';
import { Link } from 'react-router';

/** The Management tab's sections, in the spec's order; the address names one: …/management/{value}. */
export const managementSections = [
  { value: 'logging', label: 'Logging to Discord' },
  { value: 'audit-log', label: 'Audit Log' },
  { value: 'permissions', label: 'Admins & Permissions' },
  { value: 'api-keys', label: 'Access & API Keys' },
] as const;
export type ManagementSection = (typeof managementSections)[number]['value'];

export const isManagementSection = (value: string | undefined): value is ManagementSection =>
  managementSections.some((s) => s.value === value);

export const sectionLabel = (value: ManagementSection) =>
  managementSections.find((s) => s.value === value)?.label ?? value;

/**
 * The sections as a settings area lists them: real links (Tab reaches each, Enter opens it, the address can be
 * shared), the current one filled and marked with aria-current="page". They wrap at narrow widths.
 */
export function ManagementNav({ guildId, current }: { guildId: string; current: ManagementSection }) {
  return (
    <Paper withBorder p={4} component="nav" aria-label="Management sections">
      <Group gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {managementSections.map((s) => (
          <li key={s.value}>
            <Button
              component={Link}
              to={`/server-settings/${guildId}/management/${s.value}`}
              size="sm"
              variant={s.value === current ? 'filled' : 'subtle'}
              aria-current={s.value === current ? 'page' : undefined}
            >
              {s.label}
            </Button>
          </li>
        ))}
      </Group>
    </Paper>
  );
}
