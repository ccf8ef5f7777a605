import { Button, Group } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import type { WorldChange } from '../api/updateWorld';
import type { World } from '../api/worlds';
import { LockButton } from './LockButton';
import { PreviewDialog } from './PreviewDialog';
import { WorldLinks } from './WorldLinks';
import { WorldName } from './WorldName';
import { WorldRequests } from './WorldRequests';

interface Props {
  guildId: string;
  world: World;
  canManage: boolean;
  canPreview: boolean;
  onSave: (change: WorldChange) => void;
}

/** Lock, name, the download count, the two data addresses and Preview. */
export function WorldHeader({ guildId, world, canManage, canPreview, onSave }: Props) {
  const [previewing, setPreviewing] = useState(false);
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Group gap="xs" wrap="nowrap" style={{ flex: 1, minWidth: 220 }}>
        <LockButton
          locked={world.locked}
          worldName={world.name}
          readOnly={!canManage}
          onChange={(locked) => onSave({ locked })}
        />
        <WorldName name={world.name} readOnly={!canManage} onRename={(name) => onSave({ name })} />
      </Group>
      <Group gap="xs">
        <WorldRequests guildId={guildId} worldId={world.id} />
        <WorldLinks world={world} />
        {canPreview && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconEye size={14} />}
            aria-label={`Preview ${world.name}`}
            onClick={() => setPreviewing(true)}
          >
            Preview
          </Button>
        )}
      </Group>
      {previewing && <PreviewDialog guildId={guildId} world={world} onClose={() => setPreviewing(false)} />}
    </Group>
  );
}
