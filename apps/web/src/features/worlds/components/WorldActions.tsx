import { Button, Group, Tooltip } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { useDeleteWorld } from '../api/deleteWorld';
import type { World } from '../api/worlds';

interface Props {
  guildId: string;
  world: World;
  canManage: boolean;
  canViewImages: boolean;
  focusAfterDelete: () => HTMLElement | null;
}

/**
 * Images opens the world's image editor; Delete (only when unlocked) asks first. Each is named with its
 * world ("Delete Hangout Lobby"): every world on the page has both.
 */
export function WorldActions({ guildId, world, canManage, canViewImages, focusAfterDelete }: Props) {
  const navigate = useNavigate();
  const remove = useDeleteWorld(guildId);
  const [confirming, setConfirming] = useState(false);

  const confirmDelete = () => {
    setConfirming(false);
    remove.mutate(world.id, {
      onSuccess: () => notify({ type: 'success', message: `World "${world.name}" deleted.` }),
      onError: (err) =>
        notify({
          type: 'error',
          message: `Failed to delete world: ${errorMessage(err, 'Please try again.')}`,
        }),
    });
  };

  return (
    // The safe action on the left, the dangerous one apart on the right, outlined in red.
    <Group
      justify="space-between"
      gap="sm"
      pt="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      {canViewImages ? (
        <Button
          variant="default"
          leftSection={<IconPhoto size={16} />}
          aria-label={`Images of ${world.name}`}
          onClick={() => navigate(`/server-settings/${guildId}/worlds/images/${world.id}`)}
        >
          Images
        </Button>
      ) : (
        <span />
      )}
      {canManage && (
        <Tooltip label="Unlock the world to delete it." disabled={!world.locked}>
          <span>
            <Button
              color="red"
              variant="outline"
              leftSection={<IconTrash size={16} />}
              aria-label={`Delete ${world.name}`}
              disabled={world.locked}
              loading={remove.isPending}
              onClick={() => setConfirming(true)}
            >
              Delete
            </Button>
          </span>
        </Tooltip>
      )}
      <ConfirmDialog
        confirmColor="red"
        opened={confirming}
        title="Delete World"
        confirmLabel="Delete World"
        focusAfter={focusAfterDelete}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      >
        Delete “{world.name}”? This removes all its data and cannot be undone.
      </ConfirmDialog>
    </Group>
  );
}
