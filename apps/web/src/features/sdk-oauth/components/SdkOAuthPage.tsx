import { Alert, Button, Container, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBrandUnity, IconCircleCheck } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../../api/errors';
import { useLogin } from '../../../lib/auth';
import { useApproveSdkLogin } from '../api/approveSdkLogin';
import { useSdkLoginCheck } from '../api/checkSdkLogin';
import { useDenySdkLogin } from '../api/denySdkLogin';

export const MISSING_TOKEN_MESSAGE =
  'This link has no sign-in request. Start the login again from the VRChat SDK in Unity.';
export const APPROVE_FAILED_MESSAGE = 'The sign-in request could not be approved.';
export const DENY_FAILED_MESSAGE = 'The sign-in request could not be refused. Try again, or let it expire.';

/** /sdk-oauth?token=…: the signed-in user allows (or denies) the Unity editor's login request. */
export function SdkOAuthPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const navigate = useNavigate();
  const { user } = useLogin();
  const approve = useApproveSdkLogin();
  const deny = useDenySdkLogin();
  // The request is checked before the page asks "Allow?": a missing, unknown, expired or used one is
  // refused at once (a network failure leaves the question: Allow then says what went wrong).
  const check = useSdkLoginCheck(token);
  const refusedBeforeAsking =
    !token || (check.error instanceof ApiError && check.error.kind === 'bad-request');
  const goHome = () => navigate('/');
  // Deny refuses the request on the server, so the editor stops waiting; a dead request needs nothing more.
  const onDeny = () => {
    if (!token) return goHome();
    deny.mutate(token, {
      onSuccess: goHome,
      onError: (error) => {
        if (error instanceof ApiError && error.kind === 'bad-request') goHome();
      },
    });
  };
  // A 4xx means the request itself is unknown, expired or used: trying again cannot help.
  const requestIsDead = approve.error instanceof ApiError && approve.error.kind === 'bad-request';

  return (
    <Container size="xs" py="xl">
      <title>SDK Access · VRCLink</title>
      <Paper withBorder p="xl" radius="md">
        <Stack gap="lg">
          <Group gap="md" wrap="nowrap">
            <ThemeIcon size={48} radius="md" variant="light">
              <IconBrandUnity size={28} />
            </ThemeIcon>
            <Title order={1} fz="h2">
              Authorize application
            </Title>
          </Group>

          {refusedBeforeAsking ? (
            <>
              <Alert color="red" icon={<IconAlertCircle />} title="Cannot sign in">
                {token ? errorMessage(check.error, MISSING_TOKEN_MESSAGE) : MISSING_TOKEN_MESSAGE}
              </Alert>
              <Group justify="flex-end">
                <Button variant="default" onClick={goHome}>
                  Back to home
                </Button>
              </Group>
            </>
          ) : check.isPending ? (
            <Group gap="sm" role="status">
              <Loader size="sm" />
              <Text>Checking the sign-in request…</Text>
            </Group>
          ) : approve.isSuccess ? (
            <Alert color="green" icon={<IconCircleCheck />} title="Access granted">
              The VRChat SDK is now signed in as {user ? `@${user.username}` : 'you'}. You can close this page
              and return to Unity.
            </Alert>
          ) : (
            <>
              <Text>
                An application, the <strong>VRChat SDK in the Unity editor</strong>, wants access to your
                VRCLink account{user ? ` (@${user.username})` : ''}.
              </Text>
              <Text c="dimmed" size="sm">
                It will be able to see your account and the servers and worlds you manage, until you log out
                of the website. Only allow this if you just started the login from Unity yourself.
              </Text>
              {approve.isError && (
                <Alert color="red" icon={<IconAlertCircle />} title="Access not granted">
                  {errorMessage(approve.error, APPROVE_FAILED_MESSAGE)}
                </Alert>
              )}
              {deny.isError && !(deny.error instanceof ApiError && deny.error.kind === 'bad-request') && (
                <Alert color="red" icon={<IconAlertCircle />} title="Not refused">
                  {DENY_FAILED_MESSAGE}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button
                  variant="default"
                  onClick={onDeny}
                  loading={deny.isPending}
                  disabled={approve.isPending}
                >
                  Deny
                </Button>
                <Button
                  onClick={() => approve.mutate(token)}
                  loading={approve.isPending}
                  disabled={requestIsDead}
                >
                  Allow
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
