import { Text, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import { notify } from '../../../components/toasts';

interface Props {
  name: string;
  readOnly: boolean;
  onRename: (name: string) => void;
}

/**
 * The world's name, renamed in place: saved on Enter or when leaving the field; Escape undoes, and a blank name
 * is refused with a sentence.
 */
export function WorldName({ name, readOnly, onRename }: Props) {
  const [draft, setDraft] = useState(name);
  const [editing, setEditing] = useState(false);
  const cancelled = useRef(false);
  if (readOnly) {
    // Not a heading: the world's entry in the list is its heading.
    return (
      <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
        {name}
      </Text>
    );
  }
  const commit = () => {
    setEditing(false);
    const next = draft.trim();
    // A cleared name is refused in words: the name put back without a word looked like a rename to it.
    if (!cancelled.current && !next)
      notify({ type: 'error', message: `A world needs a name: it is still called “${name}”.` });
    if (!cancelled.current && next && next !== name) onRename(next);
    cancelled.current = false;
  };
  return (
    <TextInput
      aria-label={`World name: ${name}`}
      value={editing ? draft : name}
      maxLength={100}
      variant="unstyled"
      size="lg"
      style={{ flex: 1 }}
      styles={{ input: { fontWeight: 700 } }}
      onFocus={() => {
        setDraft(name);
        setEditing(true);
      }}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
        if (e.key === 'Escape') {
          cancelled.current = true;
          e.currentTarget.blur();
        }
      }}
    />
  );
}
