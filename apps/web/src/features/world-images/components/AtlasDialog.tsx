import { Anchor, Button, Group, Modal, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSparkles } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { Loaded } from '../../../components/QueryStatus';
import { notify } from '../../../components/toasts';
import { atlasImageUrl } from '../api/imageUrls';
import { type AtlasMetadata, isGenerating, useAtlasMetadata, useGenerateAtlas } from '../api/worldAtlas';

interface Props {
  guildId: string;
  worldId: string;
  opened: boolean;
  canManage: boolean;
  onClose: () => void;
}

export const ATLAS_ERROR = 'Error generating atlas';

/**
 * The world's atlases and Generate. A generation is followed (even with the dialog closed) until it ends:
 * an info notice when it starts, then a success notice or 'Error generating atlas' with the server's reason.
 */
export function AtlasDialog({ guildId, worldId, opened, canManage, onClose }: Props) {
  const [following, setFollowing] = useState(false);
  const atlas = useAtlasMetadata(worldId, opened || following);
  const generate = useGenerateAtlas(guildId, worldId);
  const { data, isFetching } = atlas;
  const isPhone = useMediaQuery('(max-width: 36em)');

  useEffect(() => {
    if (!following || !data || isFetching || isGenerating(data)) return;
    setFollowing(false);
    if (data.status === 'failed')
      notify({ type: 'error', message: data.error ? `${ATLAS_ERROR}: ${data.error}` : ATLAS_ERROR });
    else notify({ type: 'success', message: 'World atlases generated.' });
  }, [following, data, isFetching]);

  const start = () =>
    generate.mutate(undefined, {
      onSuccess: () => {
        notify({ type: 'info', message: 'Atlas generation started. This can take a moment.' });
        setFollowing(true);
      },
      onError: (err) => notify({ type: 'error', message: errorMessage(err, ATLAS_ERROR) }),
    });

  return (
    <Modal opened={opened} onClose={onClose} title="World Atlases" size="xl" fullScreen={isPhone}>
      <Stack gap="md">
        {canManage && (
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Generate packs the slots' images into the atlases this world downloads.
            </Text>
            <Button leftSection={<IconSparkles size={16} />} loading={generate.isPending} onClick={start}>
              Generate
            </Button>
          </Group>
        )}
        <Loaded query={atlas} loading="Loading atlases" failed="Failed to load atlases." py="lg">
          {(data) => <AtlasList worldId={worldId} atlas={data} />}
        </Loaded>
      </Stack>
    </Modal>
  );
}

function AtlasList({ worldId, atlas }: { worldId: string; atlas: AtlasMetadata }) {
  return (
    <Stack gap="sm">
      {isGenerating(atlas) && (
        <Stack gap={4}>
          <Text size="sm">{atlas.status === 'queued' ? 'Waiting to generate…' : 'Generating…'}</Text>
          <Progress value={atlas.progress} animated aria-label="Atlas generation progress" />
        </Stack>
      )}
      {atlas.lastGeneration && (
        <Text size="xs" c="dimmed">
          Last generated {new Date(atlas.lastGeneration).toLocaleString()}
        </Text>
      )}
      {atlas.metadata.length === 0 || atlas.variation === null ? (
        <Text c="dimmed" ta="center" py="lg">
          No atlases found
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
          {atlas.metadata.map((entry) => {
            const url = entry.url || atlasImageUrl(worldId, atlas.variation ?? 0, entry.atlasIndex);
            return (
              <Stack key={entry.atlasIndex} gap={4} component="figure" m={0}>
                <Anchor href={url} target="_blank" rel="noopener noreferrer">
                  <img
                    src={url}
                    alt={`Atlas ${entry.atlasIndex}`}
                    style={{ width: '100%', height: 180, objectFit: 'contain', background: '#111' }}
                  />
                </Anchor>
                <Text size="xs" component="figcaption">
                  Atlas {entry.atlasIndex} · {entry.width} x {entry.height} px
                </Text>
              </Stack>
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
