import { Button, Checkbox, Table, Text, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { type ScheduledTask, useRunTask, useToggleTask } from '../api/scheduledTasks';
import { formatRelative } from '../relativeTime';

function TaskRow({ task, now }: { task: ScheduledTask; now: number }) {
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
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {task.method}
        </Text>
        {task.lastError && (
          <Text size="xs" c="red">
            {task.lastError}
          </Text>
        )}
      </Table.Td>
      {/* Relative times change every second: kept on one line so the rows do not jump. */}
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {task.runRequested ? 'requested' : formatRelative(task.nextRun, now)}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatRelative(task.lastRun, now)}</Table.Td>
      <Table.Td>{task.timer}</Table.Td>
      <Table.Td>
        <Checkbox
          aria-label={`Enabled ${task.method}`}
          checked={task.enabled}
          disabled={toggle.isPending}
          onChange={onToggle}
        />
      </Table.Td>
      <Table.Td>
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
      </Table.Td>
    </Table.Tr>
  );
}

/** The tasks of one process (api and container). */
export function TaskTable({ tasks, now }: { tasks: ScheduledTask[]; now: number }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Method</Table.Th>
            <Table.Th>Next Run</Table.Th>
            <Table.Th>Last Run</Table.Th>
            <Table.Th>Timer (seconds)</Table.Th>
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
    </Table.ScrollContainer>
  );
}
