import { KeyboardSensor, PointerSensor } from '@dnd-kit/core';
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { keyboardCoordinates, useRoleSensors } from './roleSensors';

const press = (code: string) => ({ code, preventDefault: vi.fn() }) as unknown as KeyboardEvent;
const args = { currentCoordinates: { x: 100, y: 50 } } as Parameters<typeof keyboardCoordinates>[1];

describe('role picker sensors', () => {
  it('starts a pointer drag after 4 px and moves keyboard drags with the arrows', () => {
    const { result } = renderHook(() => useRoleSensors());
    const [pointer, keyboard] = result.current;
    expect(pointer.sensor).toBe(PointerSensor);
    expect(pointer.options).toEqual({ activationConstraint: { distance: 4 } });
    expect(keyboard.sensor).toBe(KeyboardSensor);
    expect(keyboard.options).toEqual({ coordinateGetter: keyboardCoordinates });
  });

  it('moves 25 px per arrow key and ignores other keys', () => {
    expect(keyboardCoordinates(press('ArrowRight'), args)).toEqual({ x: 125, y: 50 });
    expect(keyboardCoordinates(press('ArrowLeft'), args)).toEqual({ x: 75, y: 50 });
    expect(keyboardCoordinates(press('ArrowDown'), args)).toEqual({ x: 100, y: 75 });
    expect(keyboardCoordinates(press('ArrowUp'), args)).toEqual({ x: 100, y: 25 });
    const tab = press('Tab');
    expect(keyboardCoordinates(tab, args)).toBeUndefined();
    expect(tab.preventDefault).not.toHaveBeenCalled();
  });
});
