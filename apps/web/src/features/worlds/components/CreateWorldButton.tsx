import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useCreateWorld } from '../api/createWorld';

/** 'Create new': adds a locked world with default settings at the end of the list. */
export function CreateWorldButton({ guildId }: { guildId: string }) {
  const create = useCreateWorld(guildId);
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      loading={create.isPending}
      onClick={() =>
        create.mutate(undefined, {
          onError: (err) =>
            notify({
              type: 'error',
              message: `Failed to create world: ${errorMessage(err, 'Please try again.')}`,
            }),
        })
      }
    >
      Create new
    </Button>
  );
}
