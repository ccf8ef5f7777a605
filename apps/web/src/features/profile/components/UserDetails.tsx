import { DataList, Paper, Title } from '@mantine/core';
import type { Profile } from '../api/profile';

const orNA = (value: string | null | undefined) => (value?.trim() ? value : 'N/A');

export function UserDetails({ profile }: { profile: Profile }) {
  const rows = [
    { label: 'Discord ID', value: orNA(profile.user.id) },
    { label: 'VRC ID', value: orNA(profile.linkData?.id) },
    { label: 'VRC Name', value: orNA(profile.linkData?.vrchatName) },
  ];
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="user-details-title">
      <Title order={3} id="user-details-title" mb="md">
        User Details
      </Title>
      <DataList labelWidth={120}>
        {rows.map((row) => (
          <DataList.Item key={row.label}>
            <DataList.ItemLabel>{row.label}</DataList.ItemLabel>
            <DataList.ItemValue ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {row.value}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList>
    </Paper>
  );
}
