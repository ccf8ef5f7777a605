import { Button, Group, SimpleGrid } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { failureSentence } from '../../../lib/failure-sentence';
import { useDeleteImages } from '../api/deleteImage';
import type { WorldImage } from '../api/serverImages';
import { CountedPanel } from './CountedPanel';
import { ImageEditDialog } from './ImageEditDialog';
import { ServerImageCard } from './ServerImageCard';
import { UploadButton } from './UploadButton';

interface Props {
  guildId: string;
  images: WorldImage[];
  canManage: boolean;
  onUpload: (files: File[]) => void;
}

/** The spec's text, then the server's sentence when it sent one. */
/** The server's images: select (checkbox or double click), edit, delete one or the selection, upload. */
export function ServerImagesPanel({ guildId, images, canManage, onUpload }: Props) {
  const remove = useDeleteImages(guildId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editingId, setEditingId] = useState<string | null>(null);
  // What Delete asks about: one image, or the selection ('Delete Selected').
  const [deleting, setDeleting] = useState<{ images: WorldImage[]; selection: boolean } | null>(null);
  // Kept apart from `deleting` so the dialog's text stays while it fades out.
  const [confirming, setConfirming] = useState(false);
  const ask = (images: WorldImage[], selection: boolean) => {
    setDeleting({ images, selection });
    setConfirming(true);
  };
  // Images deleted elsewhere (or just now) leave the selection.
  const chosen = images.filter((image) => selected.has(image.id));

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const confirmDelete = () => {
    if (!deleting) return;
    const { selection } = deleting;
    const ids = deleting.images.map((image) => image.id);
    setConfirming(false);
    remove.mutate(ids, {
      onSuccess: () => setSelected((current) => new Set([...current].filter((id) => !ids.includes(id)))),
      onError: (err) =>
        notify({
          type: 'error',
          message: failureSentence(
            selection ? 'Failed to delete selected images.' : 'Failed to delete image.',
            err,
          ),
        }),
    });
  };

  return (
    <>
      <CountedPanel
        id="server-images-title"
        title="Server Images"
        count={images.length}
        countLabel="Number of server images"
        actions={
          canManage && (
            <Group gap="xs">
              {chosen.length > 0 && (
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={16} />}
                  loading={remove.isPending}
                  onClick={() => ask(chosen, true)}
                >
                  Delete Selected ({chosen.length})
                </Button>
              )}
              <UploadButton onFiles={onUpload} />
            </Group>
          )
        }
        empty={{
          title: 'No images yet',
          text: canManage
            ? 'Drop image files anywhere on this page, or choose them with Upload.'
            : 'Someone with the ManageImages permission can upload some.',
        }}
        hint={
          canManage
            ? 'Drag an image onto a slot to show it there. Double click an image to select it.'
            : undefined
        }
      >
        <SimpleGrid cols={{ base: 2, sm: 3, md: 2 }} spacing="xs">
          {images.map((image) => (
            <ServerImageCard
              key={image.id}
              guildId={guildId}
              image={image}
              selected={selected.has(image.id)}
              canManage={canManage}
              onToggle={() => toggle(image.id)}
              onEdit={() => setEditingId(image.id)}
              onDelete={() => ask([image], false)}
            />
          ))}
        </SimpleGrid>
      </CountedPanel>
      <ImageEditDialog
        guildId={guildId}
        image={images.find((image) => image.id === editingId) ?? null}
        onClose={() => setEditingId(null)}
      />
      <ConfirmDialog
        opened={confirming}
        title={deleting?.selection ? 'Delete Selected Images' : 'Delete Image'}
        confirmLabel={deleting?.selection ? 'Delete Images' : 'Delete Image'}
        confirmColor="red"
        onCancel={() => setConfirming(false)}
        onConfirm={confirmDelete}
      >
        {deleting?.selection
          ? `Delete the ${deleting.images.length} selected images? Slots showing them become empty. This cannot be undone.`
          : `Delete “${deleting?.images[0]?.name}”? Slots showing it become empty. This cannot be undone.`}
      </ConfirmDialog>
    </>
  );
}
