import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { type HeldDecision, type SyncActionView, useDecideHeldRemovals, useSyncStatus } from '../api/sync';
import { plural } from '../syncWords';

const NAMES_SHOWN = 5;

function names(targets: string[], count: number): string {
  const shown = targets.slice(0, NAMES_SHOWN);
  const more = count - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** "Glimmer" for a member removed from the group, "Glimmer (Event Host)" for a Discord role taken. */
const heldName = (a: SyncActionView) =>
  a.kind === 'removeDiscordRole' && a.roleName ? `${a.targetName} (${a.roleName})` : a.targetName;

/** What 'Apply removals' will do, counted from what the server listed (the first 50 at most). */
function confirmText(actions: SyncActionView[], count: number): string {
  const roles = actions.filter((a) => a.kind === 'removeDiscordRole');
  if (roles.length === 0) return `Remove ${plural(count, ['member', 'members'])} from the VRChat group?`;
  const names = [...new Set(roles.map((a) => a.roleName ?? 'a role'))].join(', ');
  if (roles.length === actions.length)
    return `Take ${names} from ${plural(count, ['member', 'members'])} in Discord?`;
  return `Apply ${plural(count, ['held removal', 'held removals'])}: members removed from the VRChat group, and ${names} taken in Discord?`;
}

const done: Record<HeldDecision, (count: number) => string> = {
  apply: (count) => `${plural(count, ['held removal', 'held removals'])} applied.`,
  discard: (count) => `${plural(count, ['held removal', 'held removals'])} discarded.`,
};

/**
 * The circuit breaker held removals back (members from the group, or a Discord role from many holders): an
 * Admin applies them (after confirming) or discards them. Shown on the VRChat and Discord tabs.
 */
export function HeldRemovalsAlert({ guildId, enabled = true }: { guildId: string; enabled?: boolean }) {
  const status = useSyncStatus(guildId, enabled);
  const decide = useDecideHeldRemovals(guildId);
  const [confirming, setConfirming] = useState(false);
  const held = status.data?.held;
  if (!enabled || !held) return null;

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
      <Text size="sm">{names(held.actions.map(heldName), held.count)}</Text>
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
        {confirmText(held.actions, held.count)}
      </ConfirmDialog>
    </Alert>
  );
}
