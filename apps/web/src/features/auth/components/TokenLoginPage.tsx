import { Alert, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { NameAvatar } from '../../../components/NameAvatar';
import { currentUserKey } from '../../../lib/auth/api/currentUser';
import { INVALID_LOGIN_LINK, loginTokenPreviewQuery, loginWithToken } from '../api/login';
import { RedirectingNotice } from './RedirectingNotice';

/**
 * Login with a one-time token from the bot (/discord_auth?token=…). Opening the link only names the account;
 * the token is redeemed when the visitor presses Sign in, so a link someone else sent cannot sign them in.
 */
export function TokenLoginPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  if (!token) return <Navigate to="/" replace />;
  return <TokenLoginPrompt token={token} />;
}

function TokenLoginPrompt({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const preview = useQuery(loginTokenPreviewQuery(token));
  const signIn = useMutation({
    mutationFn: () => loginWithToken(token),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      navigate('/profile', { replace: true });
    },
  });

  if (preview.isPending) return <RedirectingNotice message="Checking your login link…" />;
  if (preview.isError) return <InvalidLink message={errorMessage(preview.error, INVALID_LOGIN_LINK)} />;
  // Used up or expired while the page was open: the same clear message, not a dead Sign in button.
  if (signIn.isError) return <InvalidLink message={errorMessage(signIn.error, INVALID_LOGIN_LINK)} />;
  const { username, avatar } = preview.data;
  return (
    <Center py={80}>
      <Paper withBorder p="xl" radius="md" maw={420} w="100%">
        <Stack align="center" gap="md">
          <NameAvatar src={avatar} name={username} size={64} />
          <Title order={2} size="h3" ta="center">
            Sign in as @{username}?
          </Title>
          <Text c="dimmed" size="sm" ta="center">
            Only continue if you asked the bot for this link yourself.
          </Text>
          <Group>
            <Button variant="default" component={Link} to="/">
              Cancel
            </Button>
            <Button color="indigo" loading={signIn.isPending} onClick={() => signIn.mutate()}>
              Sign in
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}

function InvalidLink({ message }: { message: string }) {
  return (
    <Center py={80}>
      <Stack align="center" gap="md" maw={420}>
        <Alert color="red" icon={<IconAlertCircle size={18} />} title="Cannot sign in" w="100%">
          {message} Ask the bot for a new one with /login.
        </Alert>
        <Button variant="default" component={Link} to="/">
          Go home
        </Button>
      </Stack>
    </Center>
  );
}
