import { Button, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { AuditLogDialog } from '../../../lib/audit-log';
import { LoggingDialog } from '../../../lib/discord-logging';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import { ApiKeysPanel } from './ApiKeysPanel';
import { PermissionsPanel } from './PermissionsPanel';

interface CardProps {
  title: string;
  description: string;
  action: string;
  disabled?: boolean;
  onClick?: () => void;
}

function ManagementCard({ title, description, action, disabled, onClick }: CardProps) {
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs" h="100%" justify="space-between">
        <div>
          <Title order={3} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </div>
        <Button variant="light" disabled={disabled} onClick={onClick} aria-label={`${action} ${title}`}>
          {action}
        </Button>
      </Stack>
    </Card>
  );
}

export function ManagementTab({ guild }: { guild: ManageableGuild }) {
  const isAdmin = can(guild.permissions, 'Admin');
  const [view, setView] = useState<'permissions' | 'apiKeys' | null>(null);
  const [dialog, setDialog] = useState<'logging' | 'logs' | null>(null);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ManagementCard
          title="Logging to Discord"
          description={
            isAdmin
              ? "Send the bot's actions to a channel of your server."
              : 'Only administrators can configure logging.'
          }
          action="Configure"
          disabled={!isAdmin}
          onClick={() => setDialog('logging')}
        />
        <ManagementCard
          title="Search Logs"
          description={
            isAdmin ? "Search the bot's logs of this server." : 'Only administrators can search the logs.'
          }
          action="Open"
          disabled={!isAdmin}
          onClick={() => setDialog('logs')}
        />
        <ManagementCard
          title="Admins & Permissions"
          description={
            isAdmin
              ? 'Who may manage this server here, and what they may do.'
              : 'Only administrators can manage permissions.'
          }
          action="Manage"
          disabled={!isAdmin}
          onClick={() => setView('permissions')}
        />
        <ManagementCard
          title="Access & API Keys"
          description={
            isAdmin
              ? 'Keys for your own tools, acting in this server only.'
              : 'Only administrators can manage API keys.'
          }
          action="Manage"
          disabled={!isAdmin}
          onClick={() => setView('apiKeys')}
        />
      </SimpleGrid>
      {view === 'permissions' && isAdmin && <PermissionsPanel guildId={guild.id} />}
      {view === 'apiKeys' && isAdmin && <ApiKeysPanel guildId={guild.id} />}
      {dialog === 'logging' && isAdmin && (
        <LoggingDialog guildId={guild.id} onClose={() => setDialog(null)} />
      )}
      <AuditLogDialog
        guildId={guild.id}
        opened={dialog === 'logs' && isAdmin}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}
