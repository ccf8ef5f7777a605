import {
  Alert,
  Anchor,
  Badge,
  ColorSwatch,
  Group,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { NameAvatar } from '../../../components/NameAvatar';
import { roleColor } from '../../../components/roleColor';
import { TruncatedName } from '../../../components/TruncatedName';
import type { MemberSearchResult } from '../../../lib/guild-access/api/members';
import { useMemberDetails } from '../api/memberDetails';
import { MemberBadges } from './MemberBadges';
import { ageLabel, vrchatProfileUrl } from './memberLabels';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** 'Member Details': who the member is, their VRChat account (with its profile link), age status and roles. */
export function MemberDetailsDialog({
  guildId,
  member,
  onClose,
}: {
  guildId: string;
  member: MemberSearchResult | null;
  onClose: () => void;
}) {
  const details = useMemberDetails(guildId, member?.id ?? null);
  return (
    <Modal opened={member !== null} onClose={onClose} title="Member Details">
      {member && (
        <Stack>
          <Group wrap="nowrap">
            <NameAvatar src={member.avatar} name={member.username} size="lg" />
            <Stack gap={0} miw={0}>
              <TruncatedName name={member.username} fw={600} />
              <Text size="sm">Discord ID: {member.id}</Text>
            </Stack>
          </Group>
          <MemberBadges member={member} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Field label="VRChat account">
              {member.vrcId ? (
                <Anchor
                  href={vrchatProfileUrl(member.vrcId)}
                  target="_blank"
                  rel="noreferrer"
                  size="sm"
                  truncate="end"
                  c="blue.3"
                >
                  {member.vrcName ?? member.vrcId}
                </Anchor>
              ) : (
                <Text size="sm">Not linked</Text>
              )}
            </Field>
            <Field label="Age Verified">
              <Text size="sm">{ageLabel(member)}</Text>
            </Field>
          </SimpleGrid>
          <Field label="Roles">
            {details.isPending ? (
              <Loader size="sm" aria-label="Loading member" />
            ) : details.isError ? (
              <Alert color="red" variant="light" role="alert">
                Failed to load the member.
              </Alert>
            ) : details.data.discordRoles.length === 0 ? (
              <Text size="sm">No roles.</Text>
            ) : (
              <Group gap={6} aria-label="Roles">
                {details.data.discordRoles.map((r) => (
                  // A role's colour is the server's choice and may be unreadable as text on the dark theme: it
                  // shows as a swatch beside the name instead.
                  <Badge
                    key={r.id}
                    variant="outline"
                    color="gray"
                    maw="100%"
                    leftSection={
                      <ColorSwatch color={roleColor(r.color)} size={10} withShadow={false} aria-hidden />
                    }
                  >
                    {r.name}
                  </Badge>
                ))}
              </Group>
            )}
          </Field>
        </Stack>
      )}
    </Modal>
  );
}
