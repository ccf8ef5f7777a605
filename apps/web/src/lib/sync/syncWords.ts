import type { SyncActionKind, SyncActionView } from './api/sync';

interface KindWords {
  /** Count phrase: [singular, plural], e.g. ['invite', 'invites']. */
  count: [string, string];
  /** What one action does, for the table. */
  label: string;
  group: boolean;
}

const kinds: Record<SyncActionKind, KindWords> = {
  invite: { count: ['invite', 'invites'], label: 'Invite to group', group: true },
  acceptRequest: {
    count: ['join request accepted', 'join requests accepted'],
    label: 'Accept join request',
    group: true,
  },
  remove: { count: ['removal', 'removals'], label: 'Remove from group', group: true },
  addGroupRole: { count: ['group role given', 'group roles given'], label: 'Give group role', group: true },
  removeGroupRole: {
    count: ['group role removed', 'group roles removed'],
    label: 'Remove group role',
    group: true,
  },
  addDiscordRole: {
    count: ['Discord role given', 'Discord roles given'],
    label: 'Give Discord role',
    group: false,
  },
  removeDiscordRole: {
    count: ['Discord role removed', 'Discord roles removed'],
    label: 'Remove Discord role',
    group: false,
  },
};

const kindOrder = Object.keys(kinds) as SyncActionKind[];

const reasons: Record<string, string> = {
  Membership: 'Membership mapping',
  NoMembership: 'No-membership mapping',
  GrantRolePermanent: 'Role mapping (permanent)',
  GrantRoleTemporary: 'Role mapping (temporary)',
  RevokeRole: 'Revoke mapping',
  AutoRemove: 'Auto Remove',
  LinkedRole: 'Linked Users Role',
  Plus18Role: '18+ Verified Role',
  AgeVerifiedRole: 'Age verified role',
};

/** '1 removal', '3 invites'. */
export function plural(n: number, [one, many]: [string, string]): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Whether an action changes the VRChat group (as opposed to Discord roles). */
export const isGroupAction = (kind: string): boolean => kinds[kind as SyncActionKind]?.group ?? true;

export const actionLabel = (kind: string): string => kinds[kind as SyncActionKind]?.label ?? kind;

export const reasonLabel = (reason: string): string => reasons[reason] ?? reason;

/** The non-zero counts in words, known kinds first in a fixed order: '3 invites', '2 Discord roles given'. */
export function countPhrases(counts: Record<string, number>): string[] {
  const known = kindOrder
    .filter((kind) => counts[kind])
    .map((kind) => plural(counts[kind], kinds[kind].count));
  const unknown = Object.entries(counts)
    .filter(([kind, n]) => n && !(kind in kinds))
    .map(([kind, n]) => `${n} ${kind}`);
  return [...known, ...unknown];
}

/** Keeps only Discord role actions (and their counts) when the group feature is off. */
export function discordOnly(counts: Record<string, number>, actions: SyncActionView[]) {
  return {
    counts: Object.fromEntries(Object.entries(counts).filter(([kind]) => !isGroupAction(kind))),
    actions: actions.filter((action) => !isGroupAction(action.kind)),
  };
}

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** '5 minutes ago', '2 hours ago'; under a minute reads 'just now'. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Number.isNaN(seconds)) return 'Never';
  for (const [unit, size] of units)
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  return 'just now';
}

/** A waiting sync's place in the queue, as the server measures it. */
export interface SyncQueuePlace {
  ahead: number;
  running: number;
  estimatedSeconds: number;
}

/** "starts in about 11 minutes, 21 servers ahead" (from the queue, so never "now" behind other servers). */
export function queuePhrase(queue: SyncQueuePlace): string {
  const when =
    queue.estimatedSeconds < 10
      ? 'starts in a few seconds'
      : `starts in about ${durationWords(queue.estimatedSeconds)}`;
  const ahead =
    queue.ahead > 0
      ? `${queue.ahead} ${queue.ahead === 1 ? 'server' : 'servers'} ahead`
      : queue.running > 0
        ? 'after the sync running now'
        : 'next in line';
  return `${when}, ${ahead}`;
}

/** The status line of a waiting sync: "Queued: starts in about 11 minutes, 21 servers ahead." */
export function queuedStatus(queue: SyncQueuePlace | null | undefined): string {
  return queue ? `Queued: ${queuePhrase(queue)}.` : 'A sync is queued and starts shortly…';
}

/** Sync now's answer as a sentence: whether it was queued, and when the server syncs (from the queue). */
export function syncQueuedMessage(
  answer: {
    queued: boolean;
    running?: boolean;
    startsAt?: string | null;
    queue?: SyncQueuePlace | null;
  },
  now = Date.now(),
): string {
  const first = answer.queued ? 'Sync queued' : 'A sync is already queued';
  if (answer.running) {
    const then = answer.queue ? `: it ${queuePhrase(answer.queue)}` : '';
    return `${first}. A sync of this server is running; the next starts when it ends${then}.`;
  }
  if (answer.queue) return `${first}: ${queuePhrase(answer.queue)}.`;
  if (!answer.startsAt) return `${first}.`;
  const seconds = (Date.parse(answer.startsAt) - now) / 1000;
  if (Number.isNaN(seconds)) return `${first}.`;
  if (seconds < 10) return `${first}. It starts in a few seconds.`;
  return `${first}. It starts ${timeAgo(answer.startsAt, now)}.`;
}

/** A short duration in words: "45 seconds", "3 minutes". */
export function durationWords(seconds: number): string {
  if (seconds < 90)
    return `${Math.max(1, Math.round(seconds))} second${Math.round(seconds) === 1 ? '' : 's'}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** When something is due, in words: "in 12 minutes", "in less than a minute". */
export function timeUntil(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  if (seconds < 60) return 'in less than a minute';
  return `in ${durationWords(seconds)}`;
}
