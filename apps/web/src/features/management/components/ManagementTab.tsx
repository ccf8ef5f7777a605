import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { AuditLogView } from '../../../lib/audit-log';
import { LoggingSettings } from '../../../lib/discord-logging';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import { ApiKeysPanel } from './ApiKeysPanel';
import {
  isManagementSection,
  ManagementNav,
  type ManagementSection,
  sectionLabel,
} from './ManagementSections';
import { PermissionsPanel } from './PermissionsPanel';

/** A section's panel: its heading (said once: the section list above names it as a link, not a heading). */
function SectionPanel({
  section,
  intro,
  children,
}: {
  section: ManagementSection;
  intro: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby={`management-${section}`}>
      <Title order={2} size="h3" id={`management-${section}`}>
        {sectionLabel(section)}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {intro}
      </Text>
      {children}
    </Paper>
  );
}

function Section({ guildId, section }: { guildId: string; section: ManagementSection }) {
  switch (section) {
    case 'logging':
      return (
        <SectionPanel section={section} intro="Send the bot's actions to a channel of your server.">
          <LoggingSettings guildId={guildId} />
        </SectionPanel>
      );
    case 'audit-log':
      return (
        <SectionPanel
          section={section}
          intro="Search Logs: every change made in this server, by its admins, its members and the bot."
        >
          <AuditLogView guildId={guildId} />
        </SectionPanel>
      );
    case 'permissions':
      return <PermissionsPanel guildId={guildId} />;
    case 'api-keys':
      return <ApiKeysPanel guildId={guildId} />;
  }
}

/**
 * The Management tab as a settings area: the list of sections, then the chosen one's panel. The section is in
 * the address (`/server-settings/{id}/management/{section}`); none or an unknown one opens the first.
 */
export function ManagementTab({ guild, section }: { guild: ManageableGuild; section: string | undefined }) {
  if (!can(guild.permissions, 'Admin'))
    return (
      <Paper withBorder p="lg">
        <Text>
          Only administrators can configure logging, read the audit log, and manage admins, permissions and
          API keys.
        </Text>
      </Paper>
    );
  if (!isManagementSection(section))
    return <Navigate to={`/server-settings/${guild.id}/management/logging`} replace />;
  return (
    <Stack gap="md">
      <ManagementNav guildId={guild.id} current={section} />
      <Section guildId={guild.id} section={section} />
    </Stack>
  );
}
