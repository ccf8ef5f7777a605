import { Alert, Container } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { loginErrorMessage } from '../loginReturn';

/** Says why a login failed (`?loginError=<code>` in the address); closing it drops the code. */
export function LoginErrorAlert() {
  const [params, setParams] = useSearchParams();
  const code = params.get('loginError');
  if (!code) return null;
  return (
    <Container size="lg" pt="md">
      <Alert
        color="red"
        icon={<IconAlertCircle />}
        title="Not logged in"
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={() =>
          setParams(
            (current) => {
              const next = new URLSearchParams(current);
              next.delete('loginError');
              next.delete('retryAfter');
              return next;
            },
            { replace: true },
          )
        }
      >
        {loginErrorMessage(code, params.get('retryAfter'))}
      </Alert>
    </Container>
  );
}
