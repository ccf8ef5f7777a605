import type { JobDefinition } from './define.js';
import { accountEraseJob } from './handlers/account-erase.js';
import { discordLogDeliverJob } from './handlers/discord-log-deliver.js';
import { groupsFollowJob } from './handlers/groups-follow.js';
import { guestsReconcileJob } from './handlers/guests-reconcile.js';
import { linkEventsJob } from './handlers/link-events.js';
import { linkedRolesUpdateJob } from './handlers/linked-roles-update.js';
import { linksRefreshJob } from './handlers/links-refresh.js';
import { membersReconcileJob } from './handlers/members-reconcile.js';
import { retentionPurgeJob } from './handlers/retention-purge.js';
import { syncAllJob } from './handlers/sync-all.js';
import { syncGuildJob } from './handlers/sync-guild.js';
import { worldsAtlasJob } from './handlers/worlds-atlas.js';
import { worldsAtlasRefreshJob } from './handlers/worlds-atlas-refresh.js';
import { worldsMirrorJob } from './handlers/worlds-mirror.js';
import { worldsRebuildJob } from './handlers/worlds-rebuild.js';

/** Every job type the product runs. */
export const jobRegistry: readonly JobDefinition[] = [
  retentionPurgeJob,
  linksRefreshJob,
  worldsRebuildJob,
  worldsMirrorJob,
  membersReconcileJob,
  linkEventsJob,
  syncGuildJob,
  syncAllJob,
  groupsFollowJob,
  guestsReconcileJob,
  discordLogDeliverJob,
  worldsAtlasJob,
  worldsAtlasRefreshJob,
  linkedRolesUpdateJob,
  accountEraseJob,
] as JobDefinition[];

export function findJob(name: string): JobDefinition | undefined {
  return jobRegistry.find((job) => job.name === name);
}

/** The job a scheduled task runs; tasks are named by their method (unique in the registry). */
export function findScheduledJob(method: string, registry: readonly JobDefinition[] = jobRegistry) {
  return registry.find((job) => job.schedule?.method === method);
}

/** The jobs that run on a timer (scheduled tasks). */
export const scheduledJobs = (registry: readonly JobDefinition[] = jobRegistry) =>
  registry.filter(
    (job): job is JobDefinition & { schedule: NonNullable<JobDefinition['schedule']> } => !!job.schedule,
  );
