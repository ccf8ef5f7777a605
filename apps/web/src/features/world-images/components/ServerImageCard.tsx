import { ActionIcon, Checkbox, Group, Image, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { imagePreviewUrl } from '../api/imageUrls';
import type { WorldImage } from '../api/serverImages';
import { startImageDrag } from './imageDrag';

interface Props {
  guildId: string;
  image: WorldImage;
  selected: boolean;
  canManage: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One server image: checkbox, edit and delete, preview, name and size. Double click toggles the selection. */
export function ServerImageCard({ guildId, image, selected, canManage, onToggle, onEdit, onDelete }: Props) {
  return (
    <Paper
      withBorder
      p="xs"
      component="article"
      aria-label={image.name}
      data-selected={selected || undefined}
      style={{
        borderColor: selected ? 'var(--mantine-color-blue-6)' : undefined,
        cursor: canManage ? 'grab' : undefined,
        userSelect: 'none',
      }}
      draggable={canManage}
      onDragStart={(event) => startImageDrag(event, image.id)}
      onDoubleClick={canManage ? onToggle : undefined}
    >
      <Stack gap={6}>
        {canManage && (
          <Group justify="space-between" wrap="nowrap">
            <Checkbox aria-label={`Select ${image.name}`} checked={selected} onChange={onToggle} />
            <Group gap={4} wrap="nowrap">
              <Tooltip label="Edit">
                <ActionIcon variant="subtle" aria-label={`Edit ${image.name}`} onClick={onEdit}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Delete">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete ${image.name}`}
                  onClick={onDelete}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
        )}
        <Image
          src={imagePreviewUrl(guildId, image.id, image.imageHash)}
          alt={image.name}
          h={120}
          fit="contain"
          radius="sm"
          draggable={false}
        />
        <Text size="sm" fw={500} truncate title={image.name}>
          {image.name}
        </Text>
        <Text size="xs" c="dimmed">
          Size: {image.width} x {image.height} px
        </Text>
      </Stack>
    </Paper>
  );
}
