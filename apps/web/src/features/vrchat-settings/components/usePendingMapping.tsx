import { type ReactNode, useState } from 'react';
import { ChangePreviewPanel } from '../../../lib/sync/components/ChangePreviewPanel';

interface Mapping {
  id: string;
  discordRoleId: string | null;
  groupRoleId: string | null;
  action: string;
}

interface Pending<M> {
  entry: M;
  /** The row's name in the dialog ('Discord to group mapping 1'). */
  name: string;
  deleting: boolean;
}

/**
 * A mapping change (or deletion) waits, with the preview of what it would make the bot do, until Save or
 * Cancel. Further changes to the same row add to it; a change to another row replaces it.
 */
export function usePendingMapping<M extends Mapping>(opts: {
  guildId: string;
  kind: 'discordToGroup' | 'groupToDiscord';
  saving: boolean;
  save: (entry: M, done: () => void) => void;
  remove: (id: string, done: () => void) => void;
}) {
  const [pending, setPending] = useState<Pending<M> | null>(null);
  const clear = () => setPending(null);
  const shown = (entry: M): M =>
    pending && !pending.deleting && pending.entry.id === entry.id ? pending.entry : entry;
  const propose = (entry: M, name: string) => setPending({ entry, name, deleting: false });
  const proposeDelete = (entry: M, name: string) => setPending({ entry, name, deleting: true });
  const { entry } = pending ?? {};
  const panel: ReactNode = pending && entry && (
    <ChangePreviewPanel
      guildId={opts.guildId}
      change={{
        kind: opts.kind,
        id: entry.id,
        mapping: pending.deleting
          ? null
          : // The action enums differ per direction; the server checks the one it receives.
            ({
              discordRoleId: entry.discordRoleId,
              groupRoleId: entry.groupRoleId,
              action: entry.action,
            } as never),
      }}
      title={`${pending.deleting ? 'Delete' : 'Change'} ${pending.name}`}
      saving={opts.saving}
      onSave={() => (pending.deleting ? opts.remove(entry.id, clear) : opts.save(entry, clear))}
      onCancel={clear}
    />
  );
  return { shown, propose, proposeDelete, panel };
}
