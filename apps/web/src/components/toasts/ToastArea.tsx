import { dismiss } from './store';
import { ToastItem } from './ToastItem';
import classes from './toasts.module.css';
import { useToasts } from './useToasts';

/** The bottom-right toast stack; newest at the bottom. */
export function ToastArea() {
  const toasts = useToasts();
  return (
    <section className={classes.area} role="status" aria-live="polite" aria-label="Notifications">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} onClose={() => dismiss(toast.id)} />
      ))}
    </section>
  );
}
