import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useCreateWorld } from '../api/createWorld';
import { worldCardId } from './WorldCard';
import { focusWhenShown } from './worldFocus';

/**
 * Focus on the new world's first control (its name), once React has drawn its card: the button was disabled
 * while it worked, which dropped focus to the page.
 */
function focusWorld(worldId: string) {
  focusWhenShown(() => {
    const card = document.getElementById(worldCardId(worldId));
    return card?.querySelector<HTMLElement>('input') ?? card?.querySelector<HTMLElement>('button');
  });
}

/**
 * 'Create new': adds a locked world with default settings at the end of the list, opens it (`onCreated`),
 * says so (the toasts are a polite live region) and moves focus to its name.
 */
export function CreateWorldButton({
  guildId,
  onCreated,
}: {
  guildId: string;
  onCreated: (id: string) => void;
}) {
  const create = useCreateWorld(guildId);
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      data-create-world
      loading={create.isPending}
      onClick={() =>
        create.mutate(undefined, {
          onSuccess: (data) => {
            const created = data.worlds.at(-1);
            if (!created) return;
            onCreated(created.id);
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
