import { Alert, Button, Center, Code, Group, Loader, Modal, ScrollArea } from '@mantine/core';
import { IconClipboard, IconDownload } from '@tabler/icons-react';
import { errorMessage } from '../../../api/errors';
import { notify } from '../../../components/toasts';
import { useWorldPreview } from '../api/worldPreview';
import type { World } from '../api/worlds';
import { downloadJson, jsonFileName } from './jsonFile';

interface Props {
  guildId: string;
  world: World;
  onClose: () => void;
}

/** The document the world downloads, pretty-printed, with copy and download. Mounted while open. */
export function PreviewDialog({ guildId, world, onClose }: Props) {
  const preview = useWorldPreview(guildId, world.id, true);
  const json = preview.data === undefined ? null : JSON.stringify(preview.data, null, 2);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json ?? '');
      notify({ type: 'success', message: 'Copied to clipboard.' });
    } catch {
      notify({ type: 'error', message: 'Copy failed' });
    }
  };

  return (
    <Modal opened onClose={onClose} fullScreen title={`Preview: ${world.name}`}>
      {preview.isPending ? (
        <Center py="xl">
          <Loader aria-label="Loading preview" />
        </Center>
      ) : preview.isError ? (
        <Alert color="red" variant="light" title="Preview not available">
          {errorMessage(preview.error, 'Failed to load preview data')}
        </Alert>
      ) : (
        // Focusable: the document scrolls (sideways too, on a phone), and a keyboard must reach it (axe).
        <ScrollArea.Autosize
          mah="calc(100vh - 160px)"
          viewportProps={{ tabIndex: 0, 'aria-label': 'World data' }}
        >
          <Code block data-testid="preview-json">
            {json}
          </Code>
        </ScrollArea.Autosize>
      )}
      <Group justify="flex-end" mt="md">
        <Button leftSection={<IconClipboard size={16} />} disabled={json === null} onClick={copy}>
          Copy to clipboard
        </Button>
        <Button
          leftSection={<IconDownload size={16} />}
          disabled={json === null}
          onClick={() => json !== null && downloadJson(jsonFileName(world.name), json)}
        >
          Download
        </Button>
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Modal>
  );
}
