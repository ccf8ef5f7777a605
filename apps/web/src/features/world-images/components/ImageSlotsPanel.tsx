import { closestCenter, DndContext, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext } from '@dnd-kit/sortable';
import { Button, SimpleGrid } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { useCreateSlot } from '../api/createSlot';
import { useDeleteSlot } from '../api/deleteSlot';
import { byOrder, type ImageSlot } from '../api/imageSlots';
import { renumber, useReorderSlots } from '../api/reorderSlots';
import type { WorldImage } from '../api/serverImages';
import { type SlotChange, useUpdateSlot } from '../api/updateSlot';
import { CountedPanel } from './CountedPanel';
import { SlotCard } from './SlotCard';
import { useSlotSensors } from './slotSensors';

interface Props {
  guildId: string;
  worldId: string;
  slots: ImageSlot[];
  images: WorldImage[];
  canManage: boolean;
}

/** The spec's text, then the server's sentence when it sent one. */
/** The world's image slots in drag order; dragging renumbers them from 0 and stores the order as one batch. */
export function ImageSlotsPanel({ guildId, worldId, slots, images, canManage }: Props) {
  const sensors = useSlotSensors();
  const create = useCreateSlot(guildId, worldId);
  const update = useUpdateSlot(guildId, worldId);
  const reorder = useReorderSlots(guildId, worldId);
  const remove = useDeleteSlot(guildId, worldId);
  const [deleting, setDeleting] = useState<ImageSlot | null>(null);
  // Kept apart from `deleting` so the dialog's text stays while it fades out.
  const [confirming, setConfirming] = useState(false);
  const ordered = byOrder(slots);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const ids = ordered.map((slot) => slot.id);
    const moved = arrayMove(ordered, ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
    reorder.mutate(renumber(moved), {
      onError: (err) => notify({ type: 'error', message: failureSentence('Failed to reorder slots.', err) }),
    });
  };

  // mutateAsync: every save reports its own failure, even when several are under way.
  const save = (slot: ImageSlot, change: SlotChange) =>
    update.mutateAsync({ slot, change }).catch((err: unknown) =>
      notify({
        type: 'error',
        message:
          'imageId' in change
            ? failureSentence('Failed to update slot image.', err)
            : failureSentence('Failed to update slot.', err),
      }),
    );

  const confirmDelete = () => {
    const slot = deleting;
    setConfirming(false);
    if (slot)
      remove.mutate(slot, {
        onError: (err) => notify({ type: 'error', message: failureSentence('Failed to delete slot.', err) }),
      });
  };

  return (
    <>
      <CountedPanel
        id="image-slots-title"
        title="Image Slots"
        count={slots.length}
        countLabel="Number of image slots"
        actions={
          canManage && (
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              loading={create.isPending}
              onClick={() =>
                create.mutate(undefined, {
                  onError: (err) =>
                    notify({ type: 'error', message: failureSentence('Failed to add slot.', err) }),
                })
              }
            >
              Add slot
            </Button>
          )
        }
        empty={{
          title: 'No image slots yet',
          text: canManage
            ? 'Add a slot with Add slot, then drop a server image on it.'
            : 'Someone with the ManageImages permission can add some.',
        }}
        hint={
          canManage
            ? 'Drag a slot by its handle to change the order (with the keyboard: Space, the arrow keys, then Space).'
            : undefined
        }
      >
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={ordered.map((slot) => slot.id)} strategy={rectSortingStrategy}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {ordered.map((slot) => (
                <SlotCard
                  key={slot.id}
                  guildId={guildId}
                  slot={slot}
                  images={images}
                  canManage={canManage}
                  onChange={(change) => save(slot, change)}
                  onDelete={() => {
                    setDeleting(slot);
                    setConfirming(true);
                  }}
                />
              ))}
            </SimpleGrid>
          </SortableContext>
        </DndContext>
      </CountedPanel>
      <ConfirmDialog
        opened={confirming}
        title="Delete Slot"
        confirmLabel="Delete Slot"
        confirmColor="red"
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      >
        Delete slot {deleting?.slotId}? Worlds stop showing its image after the next atlas generation.
      </ConfirmDialog>
    </>
  );
}
