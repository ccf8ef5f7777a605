import { CloseButton, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconCircleX,
  IconInfoCircle,
  IconLoader2,
} from '@tabler/icons-react';
import type { Toast, ToastType } from './store';
import { toastLifetime } from './store';
import classes from './toasts.module.css';

const icons: Record<ToastType, typeof IconInfoCircle> = {
  success: IconCircleCheck,
  error: IconCircleX,
  progress: IconLoader2,
  info: IconInfoCircle,
  warning: IconAlertTriangle,
};

function clampPercent(value: number | undefined): number {
  return Math.round(Math.min(100, Math.max(0, value ?? 0)));
}

function ProgressBar({ toast }: { toast: Toast }) {
  if (toast.type === 'progress') {
    const percent = clampPercent(toast.progress);
    return (
      <div
        className={classes.track}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className={classes.bar} style={{ width: `${percent}%` }} />
      </div>
    );
  }
  if (toast.persistent) return <div className={classes.track} />;
  // Keyed by version so the countdown restarts when the toast is updated.
  return (
    <div className={classes.track} aria-hidden>
      <div
        key={toast.version}
        className={`${classes.bar} ${classes.countdown}`}
        style={{ animationDuration: `${toastLifetime()}ms` }}
      />
    </div>
  );
}

export function ToastItem({ toast, onClose }: { toast: Toast; onClose: () => void }) {
  const Icon = icons[toast.type];
  return (
    <div className={classes.toast} data-testid="toast" data-type={toast.type}>
      <div className={classes.body}>
        <Icon size={20} className={classes.icon} aria-hidden />
        <Text size="sm" className={classes.message}>
          {toast.message}
          {toast.type === 'progress' && ` (${clampPercent(toast.progress)}%)`}
        </Text>
        <CloseButton size="sm" aria-label="Close" onClick={onClose} />
      </div>
      <ProgressBar toast={toast} />
    </div>
  );
}
