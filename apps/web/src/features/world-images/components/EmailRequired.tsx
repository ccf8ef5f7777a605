import { Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { useSetContactEmail } from '../api/contactEmail';

export const INVALID_EMAIL = 'Please enter a valid email address.';
/** Something, an @, something, a dot, something; the server checks again. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Asks for the server's contact e-mail before images can be managed. */
export function EmailRequired({ guildId, canManage }: { guildId: string; canManage: boolean }) {
  const save = useSetContactEmail(guildId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = email.trim();
    if (!EMAIL.test(value)) {
      setError(INVALID_EMAIL);
      return;
    }
    setError(null);
    save.mutate(value, { onError: (err) => setError(errorMessage(err, INVALID_EMAIL)) });
  };

  return (
    <Paper withBorder p="lg" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4">
            Email Required
          </Title>
          <Text size="sm">
            Before you upload images, enter an e-mail address for this server. It is needed so that we, the
            provider, can contact you about issues or reports concerning your images.
          </Text>
          {canManage ? (
            <>
              <TextInput
                label="Contact e-mail"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={error}
                required
              />
              <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
                Continue
              </Button>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              Someone with the ManageImages permission in this server must enter it first.
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
