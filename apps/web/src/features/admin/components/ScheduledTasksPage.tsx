import { Container, Grid, Title } from '@mantine/core';
import { ScheduledTasksPanel } from './ScheduledTasksPanel';
import { StatusPanel } from './StatusPanel';

/** /admin (rank Admin; the route table sends anyone else home): scheduled tasks beside the status panel. */
export function ScheduledTasksPage() {
  return (
    <Container size="xl" py="md" px="xs">
      <Title order={2} mb="md">
        Admin
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <ScheduledTasksPanel />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <StatusPanel />
        </Grid.Col>
      </Grid>
    </Container>
  );
}
