import { Anchor, Button, Group, Image, Modal, Stack, Text } from '@mantine/core';
import { IconRotate2, IconRotateClockwise2 } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { imageUrl } from '../api/imageUrls';
import { type Rotation, useRotateImage } from '../api/rotateImage';
import type { WorldImage } from '../api/serverImages';

interface Props {
  guildId: string;
  image: WorldImage | null;
  onClose: () => void;
}

/** Shows an image large (the stored image, not its 256 px preview) and turns it a quarter left or right. */
export function ImageEditDialog({ guildId, image, onClose }: Props) {
  const rotate = useRotateImage(guildId);
  const turn = (rotation: Rotation) =>
    image &&
    rotate.mutate(
      { imageId: image.id, rotation },
      {
        onError: (err) =>
          notify({ type: 'error', message: `Failed to rotate image. ${errorMessage(err, '')}`.trim() }),
      },
    );

  return (
    <Modal opened={image !== null} onClose={onClose} title={image ? `Edit: ${image.name}` : ''} centered>
      {image && (
        <Stack gap="sm">
          <Image
            src={imageUrl(guildId, image.id, image.imageHash)}
            alt={image.name}
            h={280}
            fit="contain"
            radius="sm"
          />
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              Size: {image.width} x {image.height} px
            </Text>
            <Anchor
              size="sm"
              href={imageUrl(guildId, image.id, image.imageHash)}
              target="_blank"
              rel="noreferrer"
            >
              Open full size
            </Anchor>
          </Group>
          <Group grow>
            <Button
              variant="default"
              leftSection={<IconRotate2 size={16} />}
              loading={rotate.isPending && rotate.variables?.rotation === 'CounterClockwise'}
              disabled={rotate.isPending}
              onClick={() => turn('CounterClockwise')}
            >
              Turn Left
            </Button>
            <Button
              variant="default"
              leftSection={<IconRotateClockwise2 size={16} />}
              loading={rotate.isPending && rotate.variables?.rotation === 'Clockwise'}
              disabled={rotate.isPending}
              onClick={() => turn('Clockwise')}
            >
              Turn Right
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
