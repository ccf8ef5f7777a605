export type { ToastInput, ToastType } from './store';
export { dismiss, notify, update } from './store';
export { ToastArea } from './ToastArea';
