import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { NameAvatar } from '../../../components/NameAvatar';
import type { LinkData, Profile } from '../api/profile';

interface BadgeSpec {
  label: string;
  color: string;
}

/** Ownership and age badges; without a link there is nothing to verify, so none are shown. */
export function linkBadges(link: LinkData | null): BadgeSpec[] {
  if (!link) return [];
  const badges: BadgeSpec[] = [
    link.isVerified
      ? { label: 'Ownership-Verified', color: 'green' }
      : { label: 'Ownership-Not-Verified', color: 'orange' },
  ];
  // The account's age is the member's only once they proved owning it (issue #29).
  if (!link.isVerified) badges.push({ label: 'Age Not-Verified', color: 'gray' });
  else if (link.ageVerification === 'Plus18') badges.push({ label: '18+ Verified', color: 'green' });
  else if (link.ageVerification === 'Verified') badges.push({ label: 'Age Verified', color: 'teal' });
  else badges.push({ label: 'Age Not-Verified', color: 'gray' });
  return badges;
}

export function ProfileHeader({ profile, actions }: { profile: Profile; actions: ReactNode }) {
  const { user, linkData } = profile;
  const badges = linkBadges(linkData);
  return (
    <Paper withBorder p="lg" radius="md">
      <Group justify="space-between" align="flex-start" gap="lg">
        <Group gap="md" wrap="nowrap" miw={0}>
          <NameAvatar src={user.avatar} name={user.username} size={72} />
          <Stack gap={6} miw={0}>
            <Title order={2} fz="h3" style={{ overflowWrap: 'anywhere' }}>
              {user.username}
            </Title>
            {badges.length > 0 ? (
              <Group gap="xs" aria-label="Verification status" role="list">
                {badges.map((badge) => (
                  <Badge key={badge.label} color={badge.color} variant="light" role="listitem">
                    {badge.label}
                  </Badge>
                ))}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                No VRChat account linked yet.
              </Text>
            )}
          </Stack>
        </Group>
        {actions}
      </Group>
    </Paper>
  );
}
