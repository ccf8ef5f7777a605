import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from '../../../api/errors';
import { type SetupCheck, useSetupCheck } from '../api/setupCheck';

interface Props {
  guildId: string;
  /** Which tab: the panel lists that platform's checks. */
  area: SetupCheck['area'];
}

/** 'Check setup': what would stop the bot from doing its job, each with a one-line fix. */
export function SetupCheckPanel({ guildId, area }: Props) {
  const result = useSetupCheck(guildId);
  const checks = (result.data?.checks ?? []).filter((c) => c.area === area);
  const problems = checks.filter((c) => !c.ok);
  return (
    <Paper withBorder p="lg" component="section" aria-label="Check setup">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          Check setup
        </Title>
        <Button variant="light" size="xs" onClick={() => result.refetch()} loading={result.isFetching}>
          Check again
        </Button>
      </Group>
      {result.isPending ? (
        <Text size="sm">Checking...</Text>
      ) : result.isError ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(result.error, 'The setup could not be checked.')}
        </Alert>
      ) : problems.length === 0 ? (
        <Text size="sm" c="green">
          Nothing stops the bot here ({checks.length} {checks.length === 1 ? 'check' : 'checks'} passed).
        </Text>
      ) : (
        <List spacing="sm" size="sm" aria-label="Setup problems">
          {problems.map((p) => (
            <List.Item key={p.id}>
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {p.problem}
                </Text>
                <Text size="sm" c="dimmed">
                  Fix: {p.fix}
                </Text>
              </Stack>
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}
