import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Loaded } from '../../../components/QueryStatus';
import { type RecentJob, useRecentJobs } from '../api/recentJobs';
import { formatRelative } from '../relativeTime';
import { useNow } from './useNow';

const outcomes: Record<RecentJob['state'], { text: string; color: string }> = {
  queued: { text: 'Waiting', color: 'gray' },
  running: { text: 'Running', color: 'blue' },
  completed: { text: 'Succeeded', color: 'green' },
  failed: { text: 'Failed', color: 'red' },
  cancelled: { text: 'Cancelled', color: 'gray' },
};

/** When the job last moved: finished, else started, else queued. */
const lastMoved = (job: RecentJob) => job.completedAt ?? job.startedAt ?? job.createdAt;

function JobItem({ job, now }: { job: RecentJob; now: number }) {
  const outcome = outcomes[job.state];
  return (
    <li aria-label={`${job.title}: ${outcome.text}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500}>
            {job.title}
          </Text>
          <Text size="xs" c="dimmed">
            {formatRelative(lastMoved(job), now)}
          </Text>
        </div>
        <Badge color={outcome.color} variant="light" style={{ flexShrink: 0 }}>
          {outcome.text}
        </Badge>
      </Group>
      {job.error && (
        <Text size="xs" c="red" style={{ overflowWrap: 'break-word' }}>
          {job.error}
        </Text>
      )}
    </li>
  );
}

/** 'Recent Jobs': the newest jobs of every queue, in words, with their outcome (what just ran, and how). */
export function RecentJobsPanel() {
  const jobs = useRecentJobs();
  const now = useNow(1000);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="recent-jobs-title">
      <Title order={3} mb="md" id="recent-jobs-title">
        Recent Jobs
      </Title>
      <Loaded query={jobs} loading="Loading recent jobs" failed="Failed to load recent jobs." py="lg">
        {(data) =>
          data.jobs.length === 0 ? (
            <Text c="dimmed">No job has run yet.</Text>
          ) : (
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
              {data.jobs.map((job) => (
                <JobItem key={job.id} job={job} now={now} />
              ))}
            </Stack>
          )
        }
      </Loaded>
    </Paper>
  );
}
