import { Button, Group } from '@mantine/core';

/** A dialog's buttons at its foot, right-aligned: the dismiss button ('Cancel' unless named) and the action. */
export function DialogActions({
  onCancel,
  cancelLabel = 'Cancel',
  onConfirm,
  confirmLabel,
  loading,
  disabled,
}: {
  onCancel: () => void;
  cancelLabel?: string;
  onConfirm: () => void;
  confirmLabel: string;
  loading: boolean;
  disabled?: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button onClick={onConfirm} loading={loading} disabled={disabled}>
        {confirmLabel}
      </Button>
    </Group>
  );
}
