import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useNavigate } from 'react-router';

/** `/server-settings/{serverId}/worlds/images/{worldId}`: the image editor is not built yet. */
export function WorldImagesPlaceholder({ guildId }: { guildId: string }) {
  const navigate = useNavigate();
  return (
    <Paper withBorder p="lg">
      <Stack align="flex-start" gap="sm">
        <Title order={2} size="h3">
          World Images
        </Title>
        <Text c="dimmed">World images are not available yet.</Text>
        <Button
          variant="default"
          leftSection={<IconArrowLeft size={16} />}
          onClick={() => navigate(`/server-settings/${guildId}/worlds`)}
        >
          Back
        </Button>
      </Stack>
    </Paper>
  );
}
