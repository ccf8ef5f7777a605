import { Center, Image, Text } from '@mantine/core';
import { useState } from 'react';
import type { ImageSlot } from '../api/imageSlots';
import { slotPreviewUrl } from '../api/imageUrls';
import { carriesImage, droppedImageId } from './imageDrag';

interface Props {
  guildId: string;
  slot: ImageSlot;
  canManage: boolean;
  onImage: (imageId: string) => void;
}

/** The slot's image as the atlas will hold it, or 'Drop Image Here'; a server image card dropped here fills it. */
export function SlotImageDrop({ guildId, slot, canManage, onImage }: Props) {
  const [over, setOver] = useState(false);
  return (
    <Center
      data-testid={`slot-drop-${slot.slotId}`}
      h={140}
      style={{
        border: `2px dashed ${over ? 'var(--mantine-color-blue-5)' : 'var(--mantine-color-dark-4)'}`,
        borderRadius: 'var(--mantine-radius-sm)',
        background: over ? 'var(--mantine-color-blue-light)' : undefined,
      }}
      onDragOver={(event) => {
        if (!canManage || !carriesImage(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'link';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        const imageId = canManage ? droppedImageId(event) : null;
        if (!imageId) return;
        event.preventDefault();
        onImage(imageId);
      }}
    >
      {slot.imageId && slot.imageHash ? (
        <Image
          src={slotPreviewUrl(guildId, slot.worldId, slot.slotId, slot.imageHash)}
          alt={slot.imageName ?? `Image of slot ${slot.slotId}`}
          h={132}
          w="100%"
          fit="contain"
          draggable={false}
        />
      ) : (
        <Text size="sm" c="dimmed">
          Drop Image Here
        </Text>
      )}
    </Center>
  );
}
