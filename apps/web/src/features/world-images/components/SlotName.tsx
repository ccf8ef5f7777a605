import { ActionIcon, Group, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';

interface Props {
  slotId: number;
  name: string;
  canManage: boolean;
  onRename: (name: string) => void;
}

/** A slot's name ('No Name' when empty), renamed in place: Enter or leaving the field saves, Escape cancels. */
export function SlotName({ slotId, name, canManage, onRename }: Props) {
  const [draft, setDraft] = useState<string | null>(null);

  const finish = () => {
    if (draft === null) return;
    const next = draft.trim();
    setDraft(null);
    if (next !== name) onRename(next);
  };

  if (draft !== null)
    return (
      <TextInput
        aria-label={`Name of slot ${slotId}`}
        size="xs"
        value={draft}
        placeholder="No Name"
        maxLength={100}
        autoFocus
        onChange={(event) => setDraft(event.currentTarget.value)}
        onBlur={finish}
        onKeyDown={(event) => {
          if (event.key === 'Enter') finish();
          if (event.key === 'Escape') {
            event.stopPropagation();
            setDraft(null);
          }
        }}
      />
    );
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Text fw={600} truncate c={name ? undefined : 'dimmed'} title={name || undefined}>
        {name || 'No Name'}
      </Text>
      {canManage && (
        <Tooltip label="Rename">
          <ActionIcon
            variant="subtle"
            size="sm"
            aria-label={`Rename slot ${slotId}`}
            onClick={() => setDraft(name)}
          >
            <IconPencil size={14} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
