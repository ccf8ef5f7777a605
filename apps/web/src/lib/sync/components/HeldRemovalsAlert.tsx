import { Alert, Button, Group, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { notify } from '../../../components/toasts';
import { type HeldDecision, type SyncActionView, useDecideHeldRemovals, useSyncStatus } from '../api/sync';
import { plural } from '../syncWords';
import { HeldRemovalsList, heldName } from './HeldRemovalsList';

const NAMES_SHOWN = 5;

function names(targets: string[], count: number): string {
  const shown = targets.slice(0, NAMES_SHOWN);
  const more = count - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** What 'Apply removals' will do, counted from what the server listed (the first 50 at most). */
function confirmText(actions: SyncActionView[], count: number): string {
  const roles = actions.filter((a) => a.kind === 'removeDiscordRole');
  const groupRoles = actions.filter((a) => a.kind === 'removeGroupRole');
  const namesOf = (list: SyncActionView[]) =>
    [...new Set(list.map((a) => a.roleName ?? 'a role'))].join(', ');
  const members = plural(count, ['member', 'members']);
  if (roles.length === 0 && groupRoles.length === 0) return `Remove ${members} from the VRChat group?`;
  if (roles.length === actions.length) return `Take ${namesOf(roles)} from ${members} in Discord?`;
  if (groupRoles.length === actions.length)
    return `Take ${namesOf(groupRoles)} from ${members} in the VRChat group?`;
  if (groupRoles.length === 0)
    return `Apply ${plural(count, ['held removal', 'held removals'])}: members removed from the VRChat group, and ${namesOf(roles)} taken in Discord?`;
  return `Apply ${plural(count, ['held removal', 'held removals'])}: removals from the VRChat group and its roles, and roles taken in Discord?`;
}

const done: Record<HeldDecision, (count: number) => string> = {
  apply: (count) => `${plural(count, ['held removal', 'held removals'])} applied.`,
  discard: (count) => `${plural(count, ['held removal', 'held removals'])} discarded.`,
  review: (count) =>
    `${plural(count, ['discarded removal is', 'discarded removals are'])} back for a decision.`,
};

/**
 * The circuit breaker held removals back (members from the group, a group role or a Discord role from many
 * holders): an Admin reads them all (a page at a time), then applies them (after confirming) or discards them.
 * Held removals stay held until then, and discarded ones stay held (never applied) until the rules stop asking
 * for them. Shown on the VRChat and Discord tabs.
 */
export function HeldRemovalsAlert({ guildId, enabled = true }: { guildId: string; enabled?: boolean }) {
  const status = useSyncStatus(guildId, enabled);
  const decide = useDecideHeldRemovals(guildId);
  const [confirming, setConfirming] = useState(false);
  const [listing, setListing] = useState(false);
  const held = status.data?.held;
  const kept = status.data?.keptRemovals ?? 0;
  if (!enabled || (!held && kept === 0)) return null;

  const send = (decision: HeldDecision) =>
    decide.mutate(decision, {
      onSuccess: ({ count }) => {
        setConfirming(false);
        notify({ type: 'success', message: done[decision](count) });
      },
      onError: (error) =>
        notify({ type: 'error', message: errorMessage(error, 'Failed to decide on the held removals.') }),
    });
  // Discarded removals stay held; a manager who changes their mind brings them back for a decision.
  const keptNote = kept > 0 && (
    <Group gap="xs" mt={held ? 'xs' : 0}>
      <Text size="sm" c="dimmed">
        {`${plural(kept, ['discarded removal stays', 'discarded removals stay'])} held: those members are kept until the rules stop asking to remove them.`}
      </Text>
      <Button
        size="xs"
        variant="default"
        onClick={() => send('review')}
        loading={decide.isPending && decide.variables === 'review'}
        disabled={decide.isPending}
      >
        Review them again
      </Button>
    </Group>
  );
  if (!held)
    return (
      <Alert color="gray" variant="light">
        {keptNote}
      </Alert>
    );

  return (
    <Alert
      color="yellow"
      variant="light"
      title={`The last sync held back ${plural(held.count, ['removal', 'removals'])}`}
    >
      <Group gap="xs">
        <Text size="sm">{names(held.actions.map(heldName), held.count)}</Text>
        <UnstyledButton onClick={() => setListing((o) => !o)} aria-expanded={listing} fz="sm" c="blue">
          {listing ? 'Hide the list' : `Show all ${held.count}`}
        </UnstyledButton>
      </Group>
      {listing && <HeldRemovalsList guildId={guildId} />}
      {keptNote}
      <Group mt="sm" gap="xs">
        <Button size="xs" color="red" onClick={() => setConfirming(true)} disabled={decide.isPending}>
          Apply Removals
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
        title="Apply Held Removals"
        confirmLabel="Apply Removals"
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
