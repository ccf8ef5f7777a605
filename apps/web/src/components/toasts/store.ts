export type ToastType = 'success' | 'error' | 'progress' | 'info' | 'warning';

export interface ToastInput {
  message: string;
  type: ToastType;
  /** Stays until closed instead of disappearing after the lifetime. */
  persistent?: boolean;
  /** 0–100, shown by progress toasts. */
  progress?: number;
  /** Reuse an id to replace an existing toast. */
  id?: string;
}

export interface Toast extends Required<Omit<ToastInput, 'progress'>> {
  progress?: number;
  /** Changes whenever the lifetime restarts, so the countdown bar restarts too. */
  version: number;
}

/** How long a toast that is not persistent stays (the spec's 5 s). */
export const TOAST_LIFETIME_MS = 5000;
export const MAX_VISIBLE_TOASTS = 5;

let lifetimeMs = TOAST_LIFETIME_MS;

/**
 * Tests only: another lifetime. The web unit tests lengthen it (test/setup.ts): on a loaded machine more than
 * 5 s passed between a toast and the check that it had shown, and the check found it gone.
 */
export function setToastLifetime(ms: number): void {
  lifetimeMs = ms;
}

/** The lifetime toasts get now (the countdown bar runs for as long). */
export function toastLifetime(): number {
  return lifetimeMs;
}

let toasts: readonly Toast[] = [];
let nextId = 1;
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]): void {
  toasts = next;
  for (const listener of listeners) listener();
}

function schedule(toast: Toast): void {
  clearTimeout(timers.get(toast.id));
  timers.delete(toast.id);
  if (!toast.persistent)
    timers.set(
      toast.id,
      setTimeout(() => dismiss(toast.id), lifetimeMs),
    );
}

/** Shows a toast (or replaces the one with the same id) and returns its id. */
export function notify(input: ToastInput): string {
  const id = input.id ?? `toast-${nextId++}`;
  const previous = toasts.find((t) => t.id === id);
  const toast: Toast = {
    id,
    message: input.message,
    type: input.type,
    persistent: input.persistent ?? false,
    progress: input.progress,
    version: (previous?.version ?? 0) + 1,
  };
  const rest = toasts.filter((t) => t.id !== id);
  const next = [...rest, toast];
  // Only the latest few are kept: the oldest drop out.
  for (const dropped of next.slice(0, Math.max(0, next.length - MAX_VISIBLE_TOASTS))) {
    clearTimeout(timers.get(dropped.id));
    timers.delete(dropped.id);
  }
  emit(next.slice(-MAX_VISIBLE_TOASTS));
  schedule(toast);
  return id;
}

/** Changes an existing toast in place; restarts its lifetime. Does nothing if it is gone. */
export function update(id: string, changes: Partial<Omit<ToastInput, 'id'>>): void {
  const current = toasts.find((t) => t.id === id);
  if (!current) return;
  const toast: Toast = { ...current, ...changes, version: current.version + 1 };
  emit(toasts.map((t) => (t.id === id ? toast : t)));
  schedule(toast);
}

export function dismiss(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  if (toasts.some((t) => t.id === id)) emit(toasts.filter((t) => t.id !== id));
}

export function dismissAll(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  emit([]);
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): readonly Toast[] {
  return toasts;
}
