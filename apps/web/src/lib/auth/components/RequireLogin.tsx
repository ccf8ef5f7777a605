import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBrandDiscord, IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useLogin } from '../loginContext';
import { loginPath } from '../loginReturn';

export const LOGIN_REQUIRED_MESSAGE = 'You must be logged in to view this page';

/**
 * Shows its children only to logged-in users; others get the spec's message and a login button that comes
 * back to this page (with its query, e.g. the SDK's /sdk-oauth?token=…) after Discord.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { isLoggedIn } = useLogin();
  const location = useLocation();
  if (isLoggedIn) return children;
  return (
    <Center py={80}>
      <Stack align="center" gap="md" maw={420} ta="center">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconLock size={30} />
        </ThemeIcon>
        <Title order={2}>{LOGIN_REQUIRED_MESSAGE}</Title>
        <Text c="dimmed">Sign in with your Discord account to continue.</Text>
        <Button
          component={Link}
          to={loginPath(location.pathname + location.search)}
          leftSection={<IconBrandDiscord size={18} />}
        >
          Login through Discord
        </Button>
      </Stack>
    </Center>
  );
}
