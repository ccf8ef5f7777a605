import { Alert, Button, Grid, Group, Stack } from '@mantine/core';
import { IconLayoutGrid } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Loaded } from '../../../components/QueryStatus';
import type { ManageableGuild } from '../../../lib/guild-access/api/guilds';
import { can } from '../../../lib/guild-access/tabs';
import { useImageSlots } from '../api/imageSlots';
import { useServerImages } from '../api/serverImages';
import { useUploadImages } from '../api/uploadImage';
import { atlasMetadataKey, useAtlasMetadata } from '../api/worldAtlas';
import { AtlasDialog } from './AtlasDialog';
import { FileDropOverlay } from './FileDropOverlay';
import { ImageSlotsPanel } from './ImageSlotsPanel';
import { ServerImagesPanel } from './ServerImagesPanel';

/** 'View World Atlases', the world's Image Slots and the server's images; files dropped on the page upload. */
export function WorldImagesEditor({ guild, worldId }: { guild: ManageableGuild; worldId: string }) {
  const canManage = can(guild.permissions, 'ManageImages');
  const slots = useImageSlots(guild.id, worldId);
  const images = useServerImages(guild.id);
  const upload = useUploadImages(guild.id);
  const [atlasOpen, setAtlasOpen] = useState(false);
  const atlas = useAtlasMetadata(worldId, true);
  const queryClient = useQueryClient();
  // A slot changed (or an image was turned): whether the atlases are still current is read again.
  const slotsSeenAt = useRef(0);
  useEffect(() => {
    if (!slots.dataUpdatedAt) return;
    if (slotsSeenAt.current) void queryClient.invalidateQueries({ queryKey: atlasMetadataKey(worldId) });
    slotsSeenAt.current = slots.dataUpdatedAt;
  }, [slots.dataUpdatedAt, queryClient, worldId]);

  return (
    <Stack gap="md">
      <FileDropOverlay onFiles={canManage ? upload : undefined} />
      <Group>
        <Button leftSection={<IconLayoutGrid size={16} />} onClick={() => setAtlasOpen(true)}>
          View World Atlases
        </Button>
      </Group>
      {atlas.data?.outOfDate && (
        <Alert color="yellow" variant="light" title="Atlases out of date">
          An image slot changed after the atlases were generated, so the world still shows the old posters.
          They are generated again automatically a few minutes after the last change
          {canManage ? ', or press Generate in View World Atlases now.' : '.'}
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Loaded query={slots} loading="Loading image slots" failed="Failed to load image slots." py={60}>
            {(data) => (
              <ImageSlotsPanel
                guildId={guild.id}
                worldId={worldId}
                slots={data.imageSlots}
                images={images.data?.images ?? []}
                canManage={canManage}
              />
            )}
          </Loaded>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Loaded
            query={images}
            loading="Loading server images"
            failed="Failed to load server images."
            py={60}
          >
            {(data) => (
              <ServerImagesPanel
                guildId={guild.id}
                images={data.images}
                canManage={canManage}
                onUpload={upload}
              />
            )}
          </Loaded>
        </Grid.Col>
      </Grid>
      <AtlasDialog
        guildId={guild.id}
        worldId={worldId}
        opened={atlasOpen}
        canManage={canManage}
        onClose={() => setAtlasOpen(false)}
      />
    </Stack>
  );
}
