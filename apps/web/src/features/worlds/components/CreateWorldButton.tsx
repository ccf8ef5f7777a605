import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useCreateWorld } from '../api/createWorld';
import { worldCardId } from './WorldCard';

/**
 * Focus on the new world's first control (its name), once React has drawn its card: the button was disabled
 * while it worked, which dropped focus to the page.
 */
function focusWorld(worldId: string) {
  requestAnimationFrame(() => {
    const card = document.getElementById(worldCardId(worldId));
    (card?.querySelector<HTMLElement>('input') ?? card?.querySelector<HTMLElement>('button'))?.focus();
  });
}

/**
 * 'Create new': adds a locked world with default settings at the end of the list, says so (the toasts are a
 * polite live region) and moves focus to it.
 */
export function CreateWorldButton({ guildId }: { guildId: string }) {
  const create = useCreateWorld(guildId);
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      loading={create.isPending}
      onClick={() =>
        create.mutate(undefined, {
          onSuccess: (data) => {
            const created = data.worlds.at(-1);
            if (!created) return;
            notify({ type: 'success', message: `World “${created.name}” created.` });
            focusWorld(created.id);
          },
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
