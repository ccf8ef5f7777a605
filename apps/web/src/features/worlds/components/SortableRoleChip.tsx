import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ColorSwatch, Group, Pill } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { roleColor } from '../../../components/roleColor';

interface Props {
  id: string;
  name: string;
  color: number;
  readOnly: boolean;
  onRemove: () => void;
}

/** One chosen role: draggable (pointer or keyboard), removable with its X or the Delete key. */
export function SortableRoleChip({ id, name, color, readOnly, onRemove }: Props) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: readOnly,
    // Not dnd-kit's role "button": the chip holds its own remove button, and a button in a button is
    // not allowed (axe nested-interactive). A focusable group it is, moved with the keyboard.
    attributes: { role: 'group' },
  });
  // aria-pressed belongs to buttons, not groups (axe aria-allowed-attr); dnd-kit's live region already
  // announces pick-up and drop, and data-dragging marks the lifted chip.
  const { 'aria-pressed': _pressed, ...groupAttributes } = attributes;
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!readOnly && (event.key === 'Delete' || event.key === 'Backspace')) {
      event.preventDefault();
      onRemove();
      return;
    }
    listeners?.onKeyDown?.(event);
  };
  return (
    <Pill
      ref={setNodeRef}
      data-role-chip={id}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        cursor: readOnly ? undefined : 'grab',
        opacity: isDragging ? 0.6 : undefined,
        zIndex: isDragging ? 1 : undefined,
      }}
      withRemoveButton={!readOnly}
      onRemove={onRemove}
      {...groupAttributes}
      aria-label={name}
      data-dragging={isDragging || undefined}
      {...listeners}
      onKeyDown={onKeyDown}
    >
      <Group gap={6} wrap="nowrap" component="span">
        <ColorSwatch component="span" color={roleColor(color)} size={10} withShadow={false} aria-hidden />
        {name}
      </Group>
    </Pill>
  );
}
