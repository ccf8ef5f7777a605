import { ActionIcon, Tooltip } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';

interface Props {
  locked: boolean;
  /** Named in the button's name: every world has one of these. */
  worldName: string;
  readOnly: boolean;
  onChange: (locked: boolean) => void;
}

/** A locked world cannot be deleted; unlocking asks first, locking again does not. */
export function LockButton({ locked, worldName, readOnly, onChange }: Props) {
  const [confirming, setConfirming] = useState(false);
  const action = locked ? 'Unlock world' : 'Lock world';
  const label = readOnly ? (locked ? 'Locked' : 'Unlocked') : action;
  return (
    <>
      <Tooltip label={locked ? 'Locked: unlock to allow deleting' : 'Unlocked: click to lock'}>
        <ActionIcon
          variant="light"
          size="lg"
          color={locked ? 'yellow' : 'gray'}
          aria-label={`${label}: ${worldName}`}
          disabled={readOnly}
          onClick={() => (locked ? setConfirming(true) : onChange(true))}
        >
          {locked ? <IconLock size={18} /> : <IconLockOpen size={18} />}
        </ActionIcon>
      </Tooltip>
      <ConfirmDialog
        confirmColor="red"
        opened={confirming}
        title="Unlock World"
        // The spec names these buttons Confirm / Cancel.
        confirmLabel="Confirm"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onChange(false);
        }}
      >
        Unlocking this world allows deleting it. Deleting a world removes all its data and cannot be undone.
      </ConfirmDialog>
    </>
  );
}
