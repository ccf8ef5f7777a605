import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  confirmColor?: string;
  /** While the confirmed action runs. */
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before an action runs: Confirm (or the given label) and Cancel, which has the focus. */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel = 'Confirm',
  confirmColor,
  loading,
  onConfirm,
  onCancel,
}: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{children}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Cancel
        </Button>
        <Button color={confirmColor} onClick={onConfirm} loading={loading}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
