import { useSyncExternalStore } from 'react';
import { getToasts, subscribe } from './store';

export function useToasts() {
  return useSyncExternalStore(subscribe, getToasts, getToasts);
}
