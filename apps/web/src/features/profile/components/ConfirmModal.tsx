import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface Props {
  opened: boolean;
  title: string;
  children: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  confirmColor?: string;
}

/** Asks before a profile action runs: Confirm / Cancel. */
export function ConfirmModal({ opened, title, children, onConfirm, onCancel, confirmColor }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{children}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={confirmColor} onClick={onConfirm} data-autofocus>
          Confirm
        </Button>
      </Group>
    </Modal>
  );
}
