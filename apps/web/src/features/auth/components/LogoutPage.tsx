import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { Link, Navigate } from 'react-router';
import { useLogin } from '../../../lib/auth/loginContext';
import { useLogout } from '../../../lib/auth/useLogout';

/**
 * /logout opened from elsewhere (a typed address, a link): asks before ending the session, since a link alone
 * must not log anyone out, then returns home. The header's Logout logs out at once without this page.
 */
export function LogoutPage() {
  const login = useLogin();
  const logOut = useLogout();
  if (!login.user && !logOut.isPending) return <Navigate to="/" replace />;
  return (
    <Center py={80}>
      <Paper withBorder p="xl" radius="md" maw={420} w="100%">
        <Stack align="center" gap="md">
          <Title order={2} size="h3">
            Log out?
          </Title>
          <Text c="dimmed" size="sm" ta="center">
            This ends every session of @{login.user?.username}, including the Unity editor's.
          </Text>
          <Group>
            <Button variant="default" component={Link} to="/">
              Cancel
            </Button>
            <Button
              color="red"
              leftSection={<IconLogout size={16} />}
              loading={logOut.isPending}
              onClick={() => logOut.mutate()}
            >
              Log out
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
