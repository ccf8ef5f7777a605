import { closestCenter, DndContext, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, rectSortingStrategy, SortableContext } from '@dnd-kit/sortable';
import { ColorSwatch, Group, MultiSelect } from '@mantine/core';
import { roleColor } from '../../../components/roleColor';
import type { WorldRoleEntry } from '../api/worlds';
import { useRoleSensors } from './roleSensors';
import { SortableRoleChip } from './SortableRoleChip';

export interface RoleOption {
  id: string;
  name: string;
  color: number;
  position: number;
}

interface Props {
  label: string;
  description: string;
  /** The chosen roles, in the order the world data lists them. */
  value: WorldRoleEntry[];
  options: RoleOption[];
  readOnly: boolean;
  onChange: (roles: WorldRoleEntry[]) => void;
}

const toEntry = (role: RoleOption): WorldRoleEntry => ({
  roleId: role.id,
  roleName: role.name,
  color: role.color,
  position: role.position,
});

/** An orderable multi-select: pick roles from the list, drag the chips (or use the keyboard) to order them. */
export function RolePicker({ label, description, value, options, readOnly, onChange }: Props) {
  const sensors = useRoleSensors();
  const ids = value.map((r) => r.roleId);
  const byId = new Map<string, RoleOption>(options.map((o) => [o.id, o]));
  // A chosen role may be gone from the server ('Deleted role'): it stays choosable so it can be removed.
  for (const r of value)
    if (!byId.has(r.roleId)) byId.set(r.roleId, { ...r, id: r.roleId, name: r.roleName });
  const data = [...byId.values()].map((r) => ({ value: r.id, label: r.name }));

  const setIds = (next: string[]) =>
    onChange(next.map((id) => value.find((r) => r.roleId === id) ?? toEntry(byId.get(id)!)));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange(arrayMove(value, ids.indexOf(String(active.id)), ids.indexOf(String(over.id))));
  };

  return (
    <fieldset aria-label={label} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={rectSortingStrategy}>
          <MultiSelect
            label={label}
            description={description}
            data={data}
            value={ids}
            onChange={setIds}
            readOnly={readOnly}
            // Mantine still opens the list of a read-only MultiSelect on click.
            dropdownOpened={readOnly ? false : undefined}
            searchable={!readOnly}
            hidePickedOptions
            nothingFoundMessage="No options"
            placeholder={readOnly ? undefined : 'Add a role…'}
            renderOption={({ option }) => (
              <Group gap={8} wrap="nowrap">
                <ColorSwatch color={roleColor(byId.get(option.value)?.color ?? 0)} size={12} />
                {option.label}
              </Group>
            )}
            renderPill={({ value: id = '', onRemove }) => (
              <SortableRoleChip
                key={id}
                id={id}
                name={byId.get(id)?.name ?? id}
                color={byId.get(id)?.color ?? 0}
                readOnly={readOnly}
                onRemove={() => onRemove?.()}
              />
            )}
          />
        </SortableContext>
      </DndContext>
    </fieldset>
  );
}
