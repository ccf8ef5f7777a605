import { type LogEventType, logEventColors, logEventTitles } from '../../../kernel/log-event-types.js';
import { inertText } from '../../../platforms/discord/inert-text.js';
import type { DiscordEmbed } from '../../../platforms/ports.js';
import { describeAuditEntry } from '../audit-log/describeAuditEntry.js';

export interface LoggedEntry {
  action: string;
  actorName: string | null;
  actorId: string | null;
  targetId: string | null;
  details: Record<string, unknown> | null;
  createdAt: Date;
}

/**
 * What the entry is about, for the description: the summary of what changed ('Linked Users Role: Verified →
 * Event Host'), else a name the details carry, else the target's id.
 */
function subjectOf(entry: LoggedEntry): string | null {
  const d = entry.details ?? {};
  if (typeof d.summary === 'string' && d.summary.trim()) return inertText(d.summary.trim().slice(0, 300));
  if (typeof d.channelName === 'string' && d.channelName) return `#${inertText(d.channelName)}`;
  for (const key of ['targetName', 'vrchatName', 'name', 'message']) {
    const value = d[key];
    if (typeof value === 'string' && value.trim()) return inertText(value.trim().slice(0, 200));
  }
  return entry.targetId && inertText(entry.targetId);
}

/**
 * The short embed a log post is: the kind as title, the audit log's sentence (and what it is about) as
 * description, who acted, and when. Names and texts from users or platforms are inert (no Markdown,
 * no mention pills); Discord shows the timestamp in each reader's time zone.
 */
export function logEmbed(eventType: LogEventType, entry: LoggedEntry): DiscordEmbed {
  const subject = subjectOf(entry);
  const role = entry.details?.roleName;
  const parts = [describeAuditEntry(entry.action)];
  if (subject) parts.push(subject);
  if (typeof role === 'string' && role) parts.push(`role ${inertText(role)}`);
  return {
    title: logEventTitles[eventType],
    description: parts.join(' · ').slice(0, 400),
    color: logEventColors[eventType],
    fields: [
      {
        name: 'By',
        value: inertText((entry.actorName ?? entry.actorId ?? 'nobody').slice(0, 100)),
        inline: true,
      },
    ],
    timestamp: entry.createdAt.toISOString(),
  };
}
