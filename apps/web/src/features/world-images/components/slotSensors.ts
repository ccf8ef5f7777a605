import { KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

/** A drag starts after the pointer moved 4 px, so clicks on a card's controls stay clicks. */
export const POINTER_ACTIVATION_DISTANCE = 4;

/** Mouse/touch dragging by the handle, and keyboard sorting (Space, arrows, Space) from one slot to the next. */
export function useSlotSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: POINTER_ACTIVATION_DISTANCE } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
}
