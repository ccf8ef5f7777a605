import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconGripVertical, IconPhotoOff, IconTrash } from '@tabler/icons-react';
import type { ImageSlot } from '../api/imageSlots';
import type { WorldImage } from '../api/serverImages';
import type { SlotChange } from '../api/updateSlot';
import { SlotImageDrop } from './SlotImageDrop';
import { SlotName } from './SlotName';
import { maxDimensionOptions } from './slotMaxDimensions';

interface Props {
  guildId: string;
  slot: ImageSlot;
  images: WorldImage[];
  canManage: boolean;
  onChange: (change: SlotChange) => void;
  onDelete: () => void;
}

/** One image slot: drag handle, Slot ID, image, name, Max Dimension and the size it takes in the atlas. */
export function SlotCard({ guildId, slot, images, canManage, onChange, onDelete }: Props) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: slot.id, disabled: !canManage });
  const label = `slot ${slot.slotId}`;
  return (
    <Paper
      withBorder
      p="sm"
      ref={setNodeRef}
      component="article"
      aria-label={`Slot ${slot.slotId}`}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        opacity: isDragging ? 0.7 : undefined,
        zIndex: isDragging ? 2 : undefined,
        position: 'relative',
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            {canManage && (
              <ActionIcon
                ref={setActivatorNodeRef}
                variant="subtle"
                color="gray"
                aria-label={`Move ${label}`}
                style={{ cursor: 'grab', touchAction: 'none' }}
                {...attributes}
                {...listeners}
              >
                <IconGripVertical size={18} />
              </ActionIcon>
            )}
            <Badge variant="light" tt="none" style={{ flexShrink: 0 }}>
              Slot ID: {slot.slotId}
            </Badge>
          </Group>
          {canManage && (
            <Tooltip label="Delete slot">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete ${label}`} onClick={onDelete}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <SlotName
          slotId={slot.slotId}
          name={slot.name}
          canManage={canManage}
          onRename={(name) => onChange({ name })}
        />
        <SlotImageDrop
          guildId={guildId}
          slot={slot}
          canManage={canManage}
          onImage={(imageId) => onChange({ imageId })}
        />
        <Text size="sm" truncate>
          Image Name: {slot.imageName ?? 'None'}
        </Text>
        {canManage && (
          <Select
            label="Image"
            size="xs"
            placeholder="Choose an image…"
            data={images.map((image) => ({ value: image.id, label: image.name }))}
            value={slot.imageId}
            onChange={(imageId) => imageId && imageId !== slot.imageId && onChange({ imageId })}
            searchable
            nothingFoundMessage="No options"
            allowDeselect={false}
          />
        )}
        <Select
          label="Max Dimension"
          size="xs"
          data={maxDimensionOptions}
          value={String(slot.maxDimension)}
          onChange={(value) => value && onChange({ maxDimension: Number(value) })}
          readOnly={!canManage}
          allowDeselect={false}
        />
        <Group gap="md">
          <Text size="sm">Width: {slot.imageId ? `${slot.width} px` : '—'}</Text>
          <Text size="sm">Height: {slot.imageId ? `${slot.height} px` : '—'}</Text>
        </Group>
        {canManage && (
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPhotoOff size={14} />}
            disabled={!slot.imageId}
            onClick={() => onChange({ imageId: null })}
          >
            Clear Image
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
