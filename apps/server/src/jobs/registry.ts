import type { JobDefinition } from './define.js';
import { accountEraseHandler } from './handlers/account-erase.js';
import { discordLogDeliverHandler } from './handlers/discord-log-deliver.js';
import { groupsFollowHandler } from './handlers/groups-follow.js';
import { groupsRolesHandler } from './handlers/groups-roles.js';
import { guestsReconcileHandler } from './handlers/guests-reconcile.js';
import { linkEventsHandler } from './handlers/link-events.js';
import { linkedRolesUpdateHandler } from './handlers/linked-roles-update.js';
import { linksRefreshHandler } from './handlers/links-refresh.js';
import { membersReconcileHandler } from './handlers/members-reconcile.js';
import { retentionPurgeHandler } from './handlers/retention-purge.js';
import { syncAllHandler } from './handlers/sync-all.js';
import { syncGuildHandler } from './handlers/sync-guild.js';
import { worldsAtlasHandler } from './handlers/worlds-atlas.js';
import { worldsAtlasRefreshHandler } from './handlers/worlds-atlas-refresh.js';
import { worldsMirrorHandler } from './handlers/worlds-mirror.js';
import { worldsRebuildHandler } from './handlers/worlds-rebuild.js';

/** Every job type the product runs, bound to its handler: the one place handlers are bound. */
export const jobRegistry: readonly JobDefinition[] = [
  retentionPurgeHandler,
  linksRefreshHandler,
  worldsRebuildHandler,
  worldsMirrorHandler,
  membersReconcileHandler,
  linkEventsHandler,
  syncGuildHandler,
  syncAllHandler,
  groupsFollowHandler,
  groupsRolesHandler,
  guestsReconcileHandler,
  discordLogDeliverHandler,
  worldsAtlasHandler,
  worldsAtlasRefreshHandler,
  linkedRolesUpdateHandler,
  accountEraseHandler,
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
