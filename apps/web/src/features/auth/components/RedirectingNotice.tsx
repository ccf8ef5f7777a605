import { Center, Loader, Stack, Text } from '@mantine/core';

export function RedirectingNotice({ message }: { message: string }) {
  return (
    <Center py={120}>
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{message}</Text>
      </Stack>
    </Center>
  );
}
