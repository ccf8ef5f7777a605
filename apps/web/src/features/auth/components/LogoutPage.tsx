import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate } from 'react-router';
import { currentUserKey } from '../../../lib/auth/api/currentUser';
import { useLogin } from '../../../lib/auth/loginContext';
import { rememberLogout } from '../../../lib/auth/loginReturn';
import { logout } from '../api/login';

/** Asks before ending the session (a link alone must not log anyone out), then returns home. */
export function LogoutPage() {
  const login = useLogin();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logOut = useMutation({
    mutationFn: () => logout().catch((error: unknown) => console.debug('Logout call failed', error)),
    onSettled: async () => {
      rememberLogout();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserKey[0] });
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      navigate('/', { replace: true });
    },
  });
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
