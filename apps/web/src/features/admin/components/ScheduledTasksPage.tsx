import { Container, Grid, Stack, Title } from '@mantine/core';
import { RecentJobsPanel } from './RecentJobsPanel';
import { ScheduledTasksPanel } from './ScheduledTasksPanel';
import { StatusPanel } from './StatusPanel';
import { WorldMirrorPanel } from './WorldMirrorPanel';

/**
 * /admin (rank Admin; the route table sends anyone else home): scheduled tasks beside the status and world
 * mirror panels, in the header's container so the page lines up with the logo like every other page.
 */
export function ScheduledTasksPage() {
  return (
    <Container size="lg" py="md">
      {/* The page's one h1, as on every other page. */}
      <Title order={1} mb="md">
        Admin
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <ScheduledTasksPanel />
            <RecentJobsPanel />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <StatusPanel />
            <WorldMirrorPanel />
          </Stack>
        </Grid.Col>
      </Grid>
    </Container>
  );
}
