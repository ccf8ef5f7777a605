import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { keepFocusAfterAction } from './focusAfterAction';

interface Props {
  opened: boolean;
  title: string;
  children: ReactNode;
  /**
   * The confirming button: the action's verb and object, as the dialog's title ("Delete World", not "OK");
   * 'Confirm' only where the spec names it so.
   */
  confirmLabel: string;
  confirmColor?: string;
  /** While the confirmed action runs. */
  loading?: boolean;
  /** Where focus goes when the action took the opener away (default: the page's main heading). */
  focusAfter?: () => HTMLElement | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * Asks before an action runs: the action's button (its verb) and Cancel, which has the focus. Once a
 * confirmed action closes it, focus goes to the control that opened it, or to the page's main heading when
 * that control went away with the action (see keepFocusAfterAction).
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  confirmColor,
  loading,
  focusAfter,
  onConfirm,
  onCancel,
}: Props) {
  const opener = useRef<HTMLElement | null>(null);
  const confirmed = useRef(false);
  const stopWatching = useRef(() => {});
  // The latest, read when focus needs a place (after this dialog may have unmounted).
  const fallback = useRef(focusAfter);
  fallback.current = focusAfter;
  useEffect(() => {
    if (opened) {
      stopWatching.current();
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      confirmed.current = false;
      return;
    }
    if (!confirmed.current) return;
    confirmed.current = false;
    // Not undone when this dialog unmounts: a deleted world takes its card, this dialog and the opener
    // with it, and that is when focus needs a place. The watch ends by itself once focus moves on.
    setTimeout(() => {
      stopWatching.current = keepFocusAfterAction(opener.current, () => fallback.current?.() ?? null);
    }, 0);
  }, [opened]);
  // Confirmed, and unmounted before it closed (its row went first): the same watch.
  useEffect(
    () => () => {
      if (confirmed.current)
        setTimeout(() => keepFocusAfterAction(opener.current, () => fallback.current?.() ?? null), 0);
    },
    [],
  );
  const confirm = () => {
    confirmed.current = true;
    onConfirm();
  };
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text size="sm">{children}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Cancel
        </Button>
        <Button color={confirmColor} onClick={confirm} loading={loading}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
