import { Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useDeleteMyAccount, useDownloadMyData } from '../api/myData';

/** The privacy policy's self-service: download everything held about me, or delete my account. */
export function MyDataSection({ username }: { username: string }) {
  const download = useDownloadMyData();
  const [deleting, setDeleting] = useState(false);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="my-data-title">
      <Title order={3} id="my-data-title" mb="xs">
        My Data
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Download everything VRCLink holds about you as a JSON file, or delete your account and your data.
      </Text>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconDownload size={18} />}
          loading={download.isPending}
          onClick={() =>
            download.mutate(undefined, {
              onError: (error) =>
                notify({ type: 'error', message: errorMessage(error, 'Your data could not be downloaded.') }),
            })
          }
        >
          Download My Data
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconTrash size={18} />}
          onClick={() => setDeleting(true)}
        >
          Delete My Account
        </Button>
      </Group>
      <DeleteAccountDialog opened={deleting} username={username} onClose={() => setDeleting(false)} />
    </Paper>
  );
}

function DeleteAccountDialog({
  opened,
  username,
  onClose,
}: {
  opened: boolean;
  username: string;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const remove = useDeleteMyAccount();
  const navigate = useNavigate();
  const close = () => {
    setTyped('');
    remove.reset();
    onClose();
  };
  const confirm = () =>
    remove.mutate(typed, {
      onSuccess: (result) => {
        notify({ type: 'success', message: result.message });
        navigate('/', { replace: true });
      },
    });
  return (
    <Modal opened={opened} onClose={close} title="Delete My Account" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed === username) confirm();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            This unlinks your VRChat account, takes back the roles the bot gave you because of it, signs you
            out everywhere (the Unity editor too) and erases your data. Entries in the servers' audit logs
            stay, without your name. This cannot be undone.
          </Text>
          <TextInput
            label={`Type your username (${username}) to confirm`}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
            error={
              remove.isError ? errorMessage(remove.error, 'Your account could not be deleted.') : undefined
            }
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red" disabled={typed !== username} loading={remove.isPending}>
              Delete My Account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
