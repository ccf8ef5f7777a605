import { Container, Grid, Stack, Title } from '@mantine/core';
import { RecentJobsPanel } from './RecentJobsPanel';
import { ScheduledTasksPanel } from './ScheduledTasksPanel';
import { StatusPanel } from './StatusPanel';
import { WorldMirrorPanel } from './WorldMirrorPanel';

/**
 * /admin (rank Admin; the route table sends anyone else home): the status and world mirror panels, then the
 * scheduled tasks and recent jobs, in the header's container so the page lines up with the logo like every other page.
 */
export function ScheduledTasksPage() {
  return (
    <Container size="lg" py="md">
      {/* The page's one h1, as on every other page. */}
      <Title order={1} mb="md">
        Admin
      </Title>
      {/* The status and the mirror side by side above the tasks, which take the container's whole width: beside
          them (8 of 12 columns) the six columns of a task did not fit, and Run now was cut off at 1280 px. */}
      <Stack gap="md">
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <StatusPanel />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <WorldMirrorPanel />
          </Grid.Col>
        </Grid>
        <ScheduledTasksPanel />
        <RecentJobsPanel />
      </Stack>
    </Container>
  );
}
