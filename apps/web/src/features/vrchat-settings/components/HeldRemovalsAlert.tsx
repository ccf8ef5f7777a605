import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { type HeldDecision, useDecideHeldRemovals, useSyncStatus } from '../api/sync';
import { plural } from '../syncWords';

const NAMES_SHOWN = 5;

function names(targets: string[], count: number): string {
  const shown = targets.slice(0, NAMES_SHOWN);
  const more = count - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

const done: Record<HeldDecision, (count: number) => string> = {
  apply: (count) => `${plural(count, ['held removal', 'held removals'])} applied.`,
  discard: (count) => `${plural(count, ['held removal', 'held removals'])} discarded.`,
};

/** The circuit breaker held removals back: an Admin applies them (after confirming) or discards them. */
export function HeldRemovalsAlert({ guildId }: { guildId: string }) {
  const status = useSyncStatus(guildId);
  const decide = useDecideHeldRemovals(guildId);
  const [confirming, setConfirming] = useState(false);
  const held = status.data?.held;
  if (!held) return null;

  const send = (decision: HeldDecision) =>
    decide.mutate(decision, {
      onSuccess: ({ count }) => {
        setConfirming(false);
        notify({ type: 'success', message: done[decision](count) });
      },
      onError: (error) =>
        notify({ type: 'error', message: errorMessage(error, 'Failed to decide on the held removals.') }),
    });

  return (
    <Alert
      color="yellow"
      variant="light"
      title={`The last sync held back ${plural(held.count, ['removal', 'removals'])}`}
    >
      <Text size="sm">
        {names(
          held.actions.map((a) => a.targetName),
          held.count,
        )}
      </Text>
      <Group mt="sm" gap="xs">
        <Button size="xs" color="red" onClick={() => setConfirming(true)} disabled={decide.isPending}>
          Apply removals
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => send('discard')}
          loading={decide.isPending && decide.variables === 'discard'}
          disabled={decide.isPending}
        >
          Discard
        </Button>
      </Group>
      <ConfirmDialog
        opened={confirming}
        title="Apply held removals"
        confirmColor="red"
        loading={decide.isPending}
        onConfirm={() => send('apply')}
        onCancel={() => setConfirming(false)}
      >
        {`Remove ${plural(held.count, ['member', 'members'])} from the VRChat group?`}
      </ConfirmDialog>
    </Alert>
  );
}
