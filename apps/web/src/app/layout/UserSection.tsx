import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconBrandDiscord, IconLogout } from '@tabler/icons-react';
import { Link } from 'react-router';
import { NameAvatar } from '../../components/NameAvatar';
import { isAdmin, useLogin, useLogout } from '../../lib/auth';

interface Props {
  onNavigate?: () => void;
  /** In the phone menu: the Logout link goes on its own line so the name has room. */
  stacked?: boolean;
}

/** Right side of the navigation bar: the login button, or who is logged in and a Logout link. */
export function UserSection({ onNavigate, stacked = false }: Props) {
  const login = useLogin();
  const logOut = useLogout();
  if (!login.user) {
    return (
      <Button
        component={Link}
        to="/discord/login"
        onClick={onNavigate}
        leftSection={<IconBrandDiscord size={18} />}
        color="indigo"
        fullWidth={stacked}
      >
        Login through Discord
      </Button>
    );
  }
  const { username, avatar, rank } = login.user;
  const identity = (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <NameAvatar src={avatar} name={username} size={34} />
      <Text fw={600} size="sm" truncate maw={stacked ? undefined : 160}>
        @{username}
      </Text>
      {isAdmin(login) && (
        <Badge color="red" variant="filled" size="sm" style={{ flexShrink: 0 }}>
          {rank}
        </Badge>
      )}
    </Group>
  );
  const logout = (
    <Anchor
      component={Link}
      to="/logout"
      // The spec's Logout logs out and goes to /: a click does it at once (the /logout page, which asks first, is
      // for the address opened from elsewhere; a new tab or a copied link still goes there).
      onClick={(event) => {
        event.preventDefault();
        onNavigate?.();
        if (!logOut.isPending) logOut.mutate();
      }}
      aria-disabled={logOut.isPending || undefined}
      size="sm"
      c="dimmed"
      display="flex"
      style={{ alignItems: 'center', gap: 4, flexShrink: 0 }}
    >
      <IconLogout size={16} aria-hidden />
      Logout
    </Anchor>
  );
  if (stacked) {
    return (
      <Stack gap="sm">
        {identity}
        {logout}
      </Stack>
    );
  }
  return (
    <Group gap="sm" wrap="nowrap">
      {identity}
      {logout}
    </Group>
  );
}

/**
 * On a phone, where the navigation sits in the menu: a visitor who is not logged in still sees a Login button
 * in the header. Named 'Login' (the menu's button says 'Login through Discord'), short enough for 390 px.
 */
export function PhoneLoginButton() {
  const login = useLogin();
  if (login.user) return null;
  return (
    <Button
      component={Link}
      to="/discord/login"
      size="xs"
      leftSection={<IconBrandDiscord size={16} aria-hidden />}
      color="indigo"
      style={{ flexShrink: 0 }}
    >
      Login
    </Button>
  );
}
