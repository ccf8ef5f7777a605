import {
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';

/** A drag starts after the pointer moved 4 px, so a plain click on a chip stays a click. */
export const POINTER_ACTIVATION_DISTANCE = 4;
/** Each arrow key press moves a chip picked up with the keyboard by 25 px. */
export const KEYBOARD_STEP = 25;

const steps: Record<string, { x: number; y: number }> = {
  ArrowRight: { x: KEYBOARD_STEP, y: 0 },
  ArrowLeft: { x: -KEYBOARD_STEP, y: 0 },
  ArrowDown: { x: 0, y: KEYBOARD_STEP },
  ArrowUp: { x: 0, y: -KEYBOARD_STEP },
};

export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  const step = steps[event.code];
  if (!step) return undefined;
  event.preventDefault();
  return { x: currentCoordinates.x + step.x, y: currentCoordinates.y + step.y };
};

/** Mouse/touch and keyboard dragging for the role pickers' chips. */
export function useRoleSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: POINTER_ACTIVATION_DISTANCE } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );
}
