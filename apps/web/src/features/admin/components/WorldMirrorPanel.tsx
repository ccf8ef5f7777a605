import { Alert, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Loaded } from '../../../components/QueryStatus';
import { useWorldMirrorStatus, type WorldMirrorStatus } from '../api/worldMirror';
import { formatRelative } from '../relativeTime';
import { useNow } from './useNow';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" w={90} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-all' }} component="div">
        {children}
      </Text>
    </Group>
  );
}

function MirrorDetails({ mirror }: { mirror: WorldMirrorStatus }) {
  const now = useNow();
  const runs = mirror.consecutiveFailures === 1 ? 'run' : `${mirror.consecutiveFailures} runs`;
  return (
    <Stack gap={6}>
      {mirror.lastError && (
        <Alert color="red" variant="light" role="alert" title={`The last ${runs} failed.`}>
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {mirror.lastError}
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            {formatRelative(mirror.lastErrorAt, now)}; it is retried, and the next run that succeeds clears
            this.
          </Text>
        </Alert>
      )}
      {mirror.worldsNotBuilt > 0 && (
        <Alert color="yellow" variant="light">
          {mirror.worldsNotBuilt === 1 ? '1 world' : `${mirror.worldsNotBuilt} worlds`} could not be built in
          the last run; the mirror keeps their previous data.
        </Alert>
      )}
      <Row label="Remote">
        {mirror.remote} ({mirror.branch})
      </Row>
      {/* Text, not a link: the site's root has no page, only worlds/<guid>. */}
      <Row label="Address">
        {mirror.url ? `${mirror.url}/worlds/<guid>` : 'Unknown: set WORLD_MIRROR_URL.'}
      </Row>
      <Row label="Worlds">{mirror.worlds}</Row>
      <Row label="Last push">{formatRelative(mirror.lastCommitAt, now)}</Row>
      <Row label="Last success">{formatRelative(mirror.lastSuccessAt, now)}</Row>
    </Stack>
  );
}

/** The GitHub Pages world mirror (the worlds' Trusted URL): where it pushes and whether its pushes fail. */
export function WorldMirrorPanel() {
  const mirror = useWorldMirrorStatus();
  return (
    <Paper withBorder p="md" component="section" aria-label="World mirror">
      <Title order={3} mb="sm">
        World mirror
      </Title>
      <Loaded
        query={mirror}
        loading="Loading the world mirror"
        failed="Failed to load the world mirror."
        py="md"
      >
        {(data) =>
          data.configured ? (
            <MirrorDetails mirror={data} />
          ) : (
            <Text size="sm" c="dimmed">
              No mirror is configured: set WORLD_MIRROR_REMOTE to publish world data to GitHub Pages.
            </Text>
          )
        }
      </Loaded>
    </Paper>
  );
}
