import {
  Alert,
  Button,
  Checkbox,
  Group,
  List,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/errors';
import { type ChangePreview, type ProposedChange, useChangePreview } from '../api/changePreview';
import { plural } from '../syncWords';

interface Props {
  guildId: string;
  /** The change, as the preview route takes it. */
  change: ProposedChange;
  /** What changes, in words: 'Linked Users Role: Verified → Event Host'. */
  title: string;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  /** A sentence shown above the preview (e.g. why the page now shows another manager's version). */
  notice?: string | null;
  /**
   * An auto-role change that stops managing a role (`roleName`): by default the bot takes it back from the
   * members the old setting gave it to; the manager may keep it on them instead (sent with the save).
   */
  oldRole?: { roleName: string; keep: boolean; onKeepChange: (keep: boolean) => void };
}

type Effect = ChangePreview['effects'][number];

const givenLabel: Record<Effect['kind'], string> = {
  discordRole: 'Given to',
  groupRole: 'Given to',
  invite: 'Invited',
  acceptRequest: 'Accepted',
  remove: 'Removed',
};

/** One role or membership action: its sentence, and the names behind a click. */
function EffectRow({ effect }: { effect: Effect }) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Text size="sm">{effect.sentence}</Text>
        <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} fz="sm" c="blue">
          {open ? 'Hide members' : 'Show members'}
        </UnstyledButton>
      </Group>
      {open && (
        <Stack gap={2} pl="md">
          {effect.given.length > 0 && <NameList label={givenLabel[effect.kind]} names={effect.given} />}
          {effect.taken.length > 0 && (
            <NameList label={effect.kind === 'remove' ? 'Removed' : 'Taken from'} names={effect.taken} />
          )}
        </Stack>
      )}
    </Stack>
  );
}

function NameList({ label, names }: { label: string; names: string[] }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <List size="sm" aria-label={label}>
        {names.map((name, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two members may share a name
          <List.Item key={i}>{name}</List.Item>
        ))}
      </List>
    </div>
  );
}

/**
 * Gives focus back, once the panel is gone (saved or cancelled), to the control that proposed the change (what
 * had focus when the panel appeared: the select or switch just changed). Its Save and Cancel go with it, which
 * dropped focus to the page; the save's toast (a polite live region) says what happened. Focus that went
 * elsewhere is left alone.
 */
function useFocusBackOnClose() {
  useEffect(() => {
    const proposer = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    return () => {
      requestAnimationFrame(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && proposer?.isConnected && proposer !== document.body) proposer.focus();
      });
    };
  }, []);
}

/**
 * A change that makes the bot give or take roles, invite or remove is not saved at once: this panel says
 * what it would do (the sync's own planner, asked by the server) and waits for Save or Cancel. Save stays
 * disabled until the preview of this very change has arrived (and while it is asked again), so nothing is
 * saved that its manager has not seen the effect of; when the preview could not be worked out (VRChat
 * limiting, say) the panel says so and Save is allowed, knowingly. `notice` says why the preview was asked
 * again (another manager saved first).
 */
export function ChangePreviewPanel({
  guildId,
  change,
  title,
  saving,
  onSave,
  onCancel,
  notice,
  oldRole,
}: Props) {
  const preview = useChangePreview(guildId, change);
  const previewed = !preview.isPending && !preview.isFetching;
  useFocusBackOnClose();
  const body = () => {
    if (preview.isPending || (preview.isFetching && !preview.isError))
      return <Text size="sm">Working out what this change would do..</Text>;
    if (preview.isError)
      return (
        <Text size="sm" c="red" role="alert">
          {`Could not work out what this change would do. ${errorMessage(preview.error, '')}`.trim()}
        </Text>
      );
    const data = preview.data;
    return (
      <Stack gap="xs">
        {data.effects.length === 0 ? (
          <Text size="sm">No member is affected.</Text>
        ) : (
          data.effects.map((effect) => (
            <EffectRow key={`${effect.kind}:${effect.roleName}`} effect={effect} />
          ))
        )}
        {data.wouldHold > 0 && (
          <Alert color="yellow" variant="light" p="xs">
            {`The sync would hold back ${plural(data.wouldHold, ['removal', 'removals'])} for review.`}
          </Alert>
        )}
        {!data.complete && (
          <Text size="sm" c="dimmed">
            This group is too large for VRChat to list; the counts cover the members the bot has seen.
          </Text>
        )}
        {data.warnings.map((w) => (
          <Text key={w} size="sm" c="orange">
            {w}
          </Text>
        ))}
      </Stack>
    );
  };
  return (
    <Paper
      withBorder
      p="md"
      role="region"
      aria-label="Change preview"
      bg="var(--mantine-color-default-hover)"
    >
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        <Text size="xs" c="dimmed">
          Not saved yet. Saving makes the bot do this at its next sync.
        </Text>
        {notice && (
          <Alert color="yellow" variant="light" p="xs" role="status">
            {notice}
          </Alert>
        )}
        {body()}
        {oldRole && (
          <Checkbox
            label={`Keep ${oldRole.roleName} on the members who have it (the bot no longer manages it)`}
            checked={oldRole.keep}
            disabled={saving}
            onChange={(e) => oldRole.onKeepChange(e.currentTarget.checked)}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={onSave} loading={saving} disabled={!previewed}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
