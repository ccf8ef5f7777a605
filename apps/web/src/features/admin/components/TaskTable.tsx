import { Button, Checkbox, Group, Paper, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlayerPlay } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../api/errors';
import { TableScroll } from '../../../components/TableScroll';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { type ScheduledTask, useRunTask, useToggleTask } from '../api/scheduledTasks';
import { formatEvery, formatRelative } from '../relativeTime';

/** What a task shows, cell by cell, the same in the desktop row and the phone card. */
function useTaskCells(task: ScheduledTask, now: number) {
  const toggle = useToggleTask();
  const run = useRunTask();
  const onToggle = () =>
    toggle.mutate(task, {
      onError: (err) =>
        notify({ type: 'error', message: failureSentence('Failed to toggle task state.', err) }),
    });
  const onRun = () =>
    run.mutate(task, {
      onError: (err) => notify({ type: 'error', message: errorMessage(err, 'Failed to run the task.') }),
    });
  return {
    method: (
      <>
        {/* In words first; the method (the task's name in its URLs and logs) below, never broken mid-word. */}
        <Text size="sm" fw={500}>
          {task.title}
        </Text>
        {task.description && (
          <Text size="xs" c="dimmed">
            {task.description}
          </Text>
        )}
        <Text size="xs" c="dimmed" ff="monospace">
          {task.method}
        </Text>
        {task.lastError && (
          <Text size="xs" c="red">
            {task.lastError}
          </Text>
        )}
      </>
    ),
    nextRun: task.runRequested ? 'requested' : formatRelative(task.nextRun, now),
    lastRun: formatRelative(task.lastRun, now),
    timer: formatEvery(task.timer),
    enabled: (
      <Checkbox
        aria-label={`Enabled ${task.method}`}
        checked={task.enabled}
        disabled={toggle.isPending}
        onChange={onToggle}
      />
    ),
    runNow: (
      <Tooltip label={`Queue ${task.job ?? task.method} now`}>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconPlayerPlay size={14} />}
          loading={run.isPending}
          onClick={onRun}
          aria-label={`Run now: ${task.method}`}
        >
          Run now
        </Button>
      </Tooltip>
    ),
  };
}

function TaskRow({ task, now }: { task: ScheduledTask; now: number }) {
  const cells = useTaskCells(task, now);
  return (
    <Table.Tr>
      <Table.Td>{cells.method}</Table.Td>
      {/* Relative times change every second: kept on one line so the rows do not jump. */}
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{cells.nextRun}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{cells.lastRun}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{cells.timer}</Table.Td>
      <Table.Td>{cells.enabled}</Table.Td>
      <Table.Td>{cells.runNow}</Table.Td>
    </Table.Tr>
  );
}

/** A value under its label, as a phone card shows each column. */
function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ whiteSpace: 'nowrap' }}>
        {children}
      </Text>
    </div>
  );
}

/** On a narrow screen: one card per task, every column's value with its label (the table would lose columns). */
function TaskCard({ task, now }: { task: ScheduledTask; now: number }) {
  const cells = useTaskCells(task, now);
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={task.method}>
      <Stack gap="xs">
        <div>{cells.method}</div>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
          <Labelled label="Next Run">{cells.nextRun}</Labelled>
          <Labelled label="Last Run">{cells.lastRun}</Labelled>
          <Labelled label="Timer">{cells.timer}</Labelled>
        </SimpleGrid>
        <Group justify="space-between" gap="sm">
          <Group gap="xs">
            {cells.enabled}
            <Text size="sm" aria-hidden>
              Enabled
            </Text>
          </Group>
          {cells.runNow}
        </Group>
      </Stack>
    </Paper>
  );
}

/** Narrower than this, the six columns (about 760 px at their narrowest) would not fit: one card per task. */
export const TASK_CARDS_QUERY = '(max-width: 56em)';

/** The tasks of one process (api and container): a table on a wide screen, cards on a phone or a small tablet. */
export function TaskTable({ tasks, now }: { tasks: ScheduledTask[]; now: number }) {
  const cards = useMediaQuery(TASK_CARDS_QUERY);
  if (cards) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} aria-label="Tasks" style={{ listStyle: 'none' }}>
        {tasks.map((task) => (
          <TaskCard key={task.method} task={task} now={now} />
        ))}
      </Stack>
    );
  }
  return (
    <TableScroll label="Scheduled tasks table" minWidth={560}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Task</Table.Th>
            <Table.Th>Next Run</Table.Th>
            <Table.Th>Last Run</Table.Th>
            <Table.Th>Timer</Table.Th>
            <Table.Th>Enabled</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((task) => (
            <TaskRow key={task.method} task={task} now={now} />
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}
