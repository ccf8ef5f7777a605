import { z } from 'zod';

/**
 * A job type as others see it: its name, its payload and its queue settings. Sending needs only this
 * (`ctx.jobs.send(syncGuildJob, payload)`, the payload typed from the schema); what a job does is bound to
 * it in jobs/registry.ts. Job names are written here and nowhere else.
 */
export interface JobType<P extends z.ZodType = z.ZodType> {
  name: string;
  /** The job in words on /admin (e.g. 'Deliver Discord logs'), and one line on what it does. */
  title?: string;
  summary?: string;
  /** Checked when the job is sent and again when it is taken from the queue. */
  payload: P;
  retry: { limit: number; delaySeconds: number; backoff: boolean };
  /** A run taking longer fails (and is retried). */
  expireInSeconds: number;
  /**
   * Scheduled tasks: the default timer, the method (the task's name on /admin and in its URLs), and whether
   * to run once at start.
   */
  schedule?: { timerSeconds: number; method: string; runAtStart?: boolean };
}

/** Keeps the payload type of one job type. */
export const jobType = <P extends z.ZodType>(type: JobType<P>): JobType<P> => type;

/** The payload a job type is sent with. */
export type JobPayload<T extends JobType> = z.input<T['payload']>;

const none = z.object({});
const once = { limit: 0, delaySeconds: 0, backoff: false };

/** The privacy policy's 72 hours: expired sessions, tokens and cooldowns (idempotent). */
export const retentionPurgeJob = jobType({
  name: 'retention.purge',
  title: 'Purge expired data',
  summary: 'deletes sessions, tokens and cooldowns older than the privacy policy allows',
  payload: none,
  retry: { limit: 3, delaySeconds: 60, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 60 * 60, method: 'purgeExpired', runAtStart: true },
});

/** Re-reads linked VRChat accounts, spread over the day (every link once in 24 hours). */
export const linksRefreshJob = jobType({
  name: 'links.refresh',
  title: 'Refresh linked accounts',
  summary: 're-reads linked VRChat accounts so every link is checked once a day',
  payload: none,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 14 * 60,
  schedule: { timerSeconds: 15 * 60, method: 'refreshStaleLinks' },
});

/** Rebuilds the data of recently downloaded and mirrored worlds. */
export const worldsRebuildJob = jobType({
  name: 'worlds.rebuild',
  title: 'Rebuild world data',
  summary: 'rebuilds the data of recently downloaded and mirrored worlds',
  payload: none,
  retry: once,
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'rebuildEnabledWorlds' },
});

/** Publishes mirrored worlds' data to the GitHub Pages mirror. */
export const worldsMirrorJob = jobType({
  name: 'worlds.mirror',
  title: 'Mirror worlds',
  summary: "publishes mirrored worlds' data to the GitHub Pages mirror",
  payload: none,
  retry: { limit: 5, delaySeconds: 30, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 10 * 60, method: 'mirrorWorlds' },
});

/** Full reconciliation of the member mirror with Discord. */
export const membersReconcileJob = jobType({
  name: 'members.reconcile',
  title: 'Reconcile members',
  summary: "compares every server's member list with Discord and fixes the difference",
  payload: none,
  retry: { limit: 2, delaySeconds: 5 * 60, backoff: true },
  expireInSeconds: 60 * 60,
  schedule: { timerSeconds: 6 * 60 * 60, method: 'reconcileAllGuildMembers' },
});

/** Turns link changes into syncs of the member's servers. */
export const linkEventsJob = jobType({
  name: 'links.events',
  title: 'Dispatch link changes',
  summary: "turns new, changed and removed links into syncs of the member's servers",
  payload: none,
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'dispatchLinkEvents' },
});

/** One server's sync (observe, plan, apply), retried with backoff. */
export const syncGuildJob = jobType({
  name: 'sync.guild',
  title: 'Sync one server',
  summary: "applies role mappings to one server's members",
  payload: z.object({
    guildId: z.string(),
    reason: z.string(),
    approvedRemovals: z.array(z.string()).optional(),
    /** Its last sync took LONG_SYNC_MS or more (a big server): such syncs never take every sync loop. */
    long: z.boolean().optional(),
  }),
  retry: { limit: 6, delaySeconds: 20, backoff: true },
  expireInSeconds: 60 * 60,
});

/**
 * The scheduled pass: every server due gets a sync job (wings/group-sync/sync/full-pass.ts); one nothing changed in
 * is synced every 6 hours, since changes ask for their own syncs.
 */
export const syncAllJob = jobType({
  name: 'sync.all',
  title: 'Sync all servers',
  summary: 'queues a sync for every server due: where nothing changed, every 6 hours',
  payload: none,
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 15 * 60, method: 'syncAllGuilds' },
});

/** Follows linked groups' audit logs. */
export const groupsFollowJob = jobType({
  name: 'groups.follow',
  title: 'Follow group audit logs',
  summary: "reads linked VRChat groups' audit logs for joins, leaves and role changes",
  payload: none,
  retry: once,
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 60, method: 'followGroupAuditLogs' },
});

/** Reads linked groups' roles again, slowly (role changes arrive by groups.follow; this catches the rest). */
export const groupsRolesJob = jobType({
  name: 'groups.roles',
  title: 'Refresh group roles',
  summary: 'reads the roles of linked VRChat groups whose kept copy is missing, out of date or six hours old',
  payload: none,
  retry: once,
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 30 * 60, method: 'refreshGroupRoles' },
});

/** Makes guest roles in Discord match the guest records. */
export const guestsReconcileJob = jobType({
  name: 'guests.reconcile',
  title: 'Reconcile guest roles',
  summary: 'makes guest roles in Discord match the guest records',
  payload: none,
  retry: { limit: 2, delaySeconds: 60, backoff: true },
  expireInSeconds: 30 * 60,
  schedule: { timerSeconds: 15 * 60, method: 'reconcileAllGuildGuests' },
});

/** Posts the server log embeds waiting in the outbox. */
export const discordLogDeliverJob = jobType({
  name: 'discordLog.deliver',
  title: 'Deliver Discord logs',
  summary: "posts queued staff-log messages to each server's log channel",
  payload: none,
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 10 * 60,
  schedule: { timerSeconds: 30, method: 'deliverDiscordLogs' },
});

/** A world atlas request goes stale (and may be replaced) after this long; the job expires a minute before. */
export const ATLAS_STALE_MS = 10 * 60_000;

/** One world's atlas generation; not retried (the manager generates again). */
export const worldsAtlasJob = jobType({
  name: 'worlds.atlas',
  title: 'Generate a world atlas',
  summary: "draws one world's image atlas",
  payload: z.object({ worldId: z.uuid() }),
  retry: once,
  expireInSeconds: ATLAS_STALE_MS / 1000 - 60,
});

/** Regenerates atlases whose slots changed since they were made, debounced. */
export const worldsAtlasRefreshJob = jobType({
  name: 'worlds.atlasRefresh',
  title: 'Regenerate out-of-date atlases',
  summary: 'redraws atlases whose image slots changed since they were made',
  payload: none,
  retry: once,
  expireInSeconds: 5 * 60,
  schedule: { timerSeconds: 300, method: 'regenerateOutOfDateAtlases' },
});

/** One user's Discord role connection after their link changed. */
export const linkedRolesUpdateJob = jobType({
  name: 'linkedRoles.update',
  title: 'Update a linked role',
  summary: "updates one user's Discord role connection after their link changed",
  payload: z.object({ userId: z.string() }),
  retry: { limit: 5, delaySeconds: 10, backoff: true },
  expireInSeconds: 5 * 60,
});

/** A deleted account's erasure; every step repeats safely. */
export const accountEraseJob = jobType({
  name: 'account.erase',
  title: 'Erase a deleted account',
  summary: "removes a deleted account's data, step by step",
  payload: z.object({
    userId: z.string(),
    pseudonym: z.string(),
    vrcUserId: z.string().nullable(),
    /** When deletion was asked (database time); absent in jobs queued before it was recorded. */
    requestedAt: z.iso.datetime({ offset: true }).optional(),
  }),
  retry: { limit: 10, delaySeconds: 30, backoff: true },
  expireInSeconds: 15 * 60,
});
