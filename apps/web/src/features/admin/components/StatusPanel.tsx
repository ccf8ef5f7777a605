import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { Loaded } from '../../../components/QueryStatus';
import { StatCard } from '../../../components/StatCard';
import { notify } from '../../../components/toasts';
import { type ProcessStatus, useAdminStatus, useRetryVrchatLogin } from '../api/adminStatus';
import { gatewayLabel, vrchatLabel } from './platformLabels';
import { VrchatAccountsTable } from './VrchatAccountsTable';

function ProcessCard({ process }: { process: ProcessStatus }) {
  const vrchat = vrchatLabel(process.vrchat);
  const gateway = gatewayLabel(process.discord.gateway);
  return (
    <Paper withBorder p="sm" aria-label={`Process ${process.container}`} component="section">
      <Group justify="space-between" gap="xs" mb={6}>
        <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
          {process.container}
        </Text>
        <Text size="xs" c="dimmed">
          {process.roles.join(', ')}
        </Text>
      </Group>
      <Group gap="xs">
        <Text size="sm">VRChat</Text>
        <Badge color={vrchat.color} variant="light">
          {vrchat.text}
        </Badge>
      </Group>
      {process.vrchat?.lastError && process.vrchat.status !== 'ok' && (
        <Text size="xs" c="dimmed">
          {process.vrchat.lastError}
        </Text>
      )}
      <Group gap="xs" mt={4}>
        <Text size="sm">Discord gateway</Text>
        <Badge color={gateway.color} variant="light">
          {gateway.text}
        </Badge>
      </Group>
    </Paper>
  );
}

/** Platform state of every live process, the job queue, and Retry login. */
export function StatusPanel() {
  const status = useAdminStatus();
  const retry = useRetryVrchatLogin();
  const onRetry = () =>
    retry.mutate(undefined, {
      onSuccess: (res) =>
        notify({
          type: res.vrchat.status === 'ok' ? 'success' : 'warning',
          message: `VRChat login on ${res.container}: ${vrchatLabel(res.vrchat).text}.`,
        }),
      onError: (err) =>
        notify({ type: 'error', message: errorMessage(err, 'Failed to retry the VRChat login.') }),
    });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="md">
        <Title order={3}>Status</Title>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconRefresh size={14} />}
          loading={retry.isPending}
          onClick={onRetry}
        >
          Retry login
        </Button>
      </Group>
      <Loaded query={status} loading="Loading status" failed="Failed to load the status." py="lg">
        {(data) => (
          <Stack gap="sm">
            {data.processes.length === 0 ? (
              <Text c="dimmed">No live processes.</Text>
            ) : (
              data.processes.map((p) => <ProcessCard key={p.container} process={p} />)
            )}
            <Title order={4} mt="xs">
              VRChat bot accounts
            </Title>
            <VrchatAccountsTable accounts={data.vrchatAccounts} />
            <Title order={4} mt="xs">
              Job queue
            </Title>
            <SimpleGrid cols={3} spacing="xs">
              <StatCard label="Queued" value={data.queue.queued} />
              <StatCard label="Running" value={data.queue.active} />
              <StatCard label="Failed (24 h)" value={data.queue.failedLast24h} />
            </SimpleGrid>
          </Stack>
        )}
      </Loaded>
    </Paper>
  );
}
