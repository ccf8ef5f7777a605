import { Textarea } from '@mantine/core';
import { useRef, useState } from 'react';
import type { WorldChange } from '../api/updateWorld';
import type { World } from '../api/worlds';

type SaveState = 'idle' | 'saved' | 'failed';

const borderColors: Record<SaveState, string | undefined> = {
  idle: undefined,
  saved: 'var(--mantine-color-green-6)',
  failed: 'var(--mantine-color-red-6)',
};

interface Props {
  world: World;
  readOnly: boolean;
  onSave: (change: WorldChange) => Promise<boolean>;
}

/** Custom World Data, saved when the field is left: green border after a save, red when it failed. */
export function CustomDataEditor({ world, readOnly, onSave }: Props) {
  const [draft, setDraft] = useState(world.customData);
  const [state, setState] = useState<SaveState>('idle');
  const stored = useRef(world.customData);

  const save = async () => {
    if (readOnly || draft === stored.current) return;
    const ok = await onSave({ customData: draft });
    if (ok) stored.current = draft;
    setState(ok ? 'saved' : 'failed');
  };

  return (
    <Textarea
      label="Custom World Data"
      aria-label={`Custom World Data of ${world.name}`}
      description={
        world.jsonMode
          ? 'Must be valid JSON (JSON Custom Data Mode). Saved when you leave the field.'
          : 'Any text the world reads. Saved when you leave the field.'
      }
      rows={30}
      value={draft}
      readOnly={readOnly}
      spellCheck={false}
      data-save-state={state}
      aria-invalid={state === 'failed'}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={save}
      styles={{
        input: {
          fontFamily: world.jsonMode ? 'var(--mantine-font-family-monospace)' : undefined,
          borderColor: borderColors[state],
          borderWidth: state === 'idle' ? undefined : 2,
        },
      }}
    />
  );
}
