import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '../../../api/errors';

/** The server answers 404 for a world that is not this server's (or does not exist). */
export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** The address names a world of another server, or none. */
export function WorldNotFound() {
  return (
    <Paper withBorder p="xl">
      <Center>
        <Stack align="center" gap={4}>
          <Title order={3} size="h4">
            World not found
          </Title>
          <Text c="dimmed" ta="center">
            This server has no world with this id. Go back to the Worlds tab and choose one of its worlds.
          </Text>
        </Stack>
      </Center>
    </Paper>
  );
}
