import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify, setToastLifetime, TOAST_LIFETIME_MS, update } from './store';
import { ToastArea } from './ToastArea';

function renderArea() {
  return render(
    <MantineProvider>
      <ToastArea />
    </MantineProvider>,
  );
}

const texts = () => screen.queryAllByTestId('toast').map((t) => t.textContent);

beforeEach(() => {
  vi.useFakeTimers();
  // The product's lifetime (test/setup.ts lengthens it for every other test).
  setToastLifetime(TOAST_LIFETIME_MS);
});

describe('ToastArea', () => {
  it('removes a toast after its 5 second lifetime', () => {
    renderArea();
    act(() => {
      notify({ message: 'Saved', type: 'success' });
    });
    expect(screen.getByTestId('toast').getAttribute('data-type')).toBe('success');
    act(() => vi.advanceTimersByTime(4900));
    expect(texts()).toEqual(['Saved']);
    act(() => vi.advanceTimersByTime(200));
    expect(texts()).toEqual([]);
  });

  it('keeps a persistent toast until it is closed', () => {
    renderArea();
    act(() => {
      notify({ message: 'Stays', type: 'error', persistent: true });
    });
    act(() => vi.advanceTimersByTime(60_000));
    expect(texts()).toEqual(['Stays']);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(texts()).toEqual([]);
  });

  it('shows only the latest five: a sixth pushes out the oldest', () => {
    renderArea();
    act(() => {
      for (let i = 1; i <= 6; i++) notify({ message: `Toast ${i}`, type: 'info', persistent: true });
    });
    expect(texts()).toEqual(['Toast 2', 'Toast 3', 'Toast 4', 'Toast 5', 'Toast 6']);
  });

  it('closes a timed toast with its close button', () => {
    renderArea();
    act(() => {
      notify({ message: 'One', type: 'info' });
      notify({ message: 'Two', type: 'warning' });
    });
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0]);
    expect(texts()).toEqual(['Two']);
  });

  it('shows the percentage of a progress toast and updates it in place', () => {
    renderArea();
    let id = '';
    act(() => {
      id = notify({ message: 'Uploading', type: 'progress', persistent: true, progress: 10 });
    });
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
    act(() => update(id, { progress: 55 }));
    expect(texts()).toEqual(['Uploading (55%)']);
  });

  it('restarts the lifetime when a toast is updated', () => {
    renderArea();
    let id = '';
    act(() => {
      id = notify({ message: 'Working', type: 'info' });
    });
    act(() => vi.advanceTimersByTime(4000));
    act(() => update(id, { message: 'Done', type: 'success' }));
    act(() => vi.advanceTimersByTime(4000));
    expect(texts()).toEqual(['Done']);
    act(() => vi.advanceTimersByTime(1100));
    expect(texts()).toEqual([]);
  });
});
