import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Loaded } from '../../../components/QueryStatus';
import { type ScheduledTask, useScheduledTasks } from '../api/scheduledTasks';
import { TaskTable } from './TaskTable';
import { useNow } from './useNow';

/** Tasks grouped by api and container, in the server's order. */
export function groupTasks(tasks: ScheduledTask[]) {
  const groups = new Map<string, { api: string; container: string; tasks: ScheduledTask[] }>();
  for (const task of tasks) {
    const key = `${task.api}\u0000${task.container}`;
    const group = groups.get(key) ?? { api: task.api, container: task.container, tasks: [] };
    group.tasks.push(task);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** 'Scheduled Tasks': every live process's tasks, refreshed every second. */
export function ScheduledTasksPanel() {
  const tasks = useScheduledTasks();
  const now = useNow(1000);
  return (
    <Paper withBorder p="md">
      <Title order={3} mb="md">
        Scheduled Tasks
      </Title>
      <Loaded
        query={tasks}
        loading="Loading scheduled tasks"
        failed="Failed to load scheduled tasks."
        py="lg"
      >
        {(data) =>
          data.tasks.length === 0 ? (
            <Text c="dimmed">No scheduled tasks: no worker process is running.</Text>
          ) : (
            <Stack gap="lg">
              {groupTasks(data.tasks).map((group) => (
                <section
                  key={`${group.api}/${group.container}`}
                  aria-label={`${group.api} ${group.container}`}
                >
                  <Group gap="xs" mb={4}>
                    <Badge variant="light">{group.api}</Badge>
                    <Text fw={600} size="sm" style={{ wordBreak: 'break-all' }}>
                      {group.container}
                    </Text>
                  </Group>
                  <TaskTable tasks={group.tasks} now={now} />
                </section>
              ))}
            </Stack>
          )
        }
      </Loaded>
    </Paper>
  );
}
