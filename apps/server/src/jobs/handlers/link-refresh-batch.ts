const DAY_SECONDS = 24 * 60 * 60;
/** VRChat is paced anyway; this keeps one run well inside its time limit. */
export const MAX_LINK_REFRESH_BATCH = 500;

/** How many links one run refreshes so that `total` links are all covered within a day of runs. */
export function linkRefreshBatchSize(total: number, timerSeconds: number): number {
  const runsPerDay = Math.max(1, Math.floor(DAY_SECONDS / timerSeconds));
  return Math.min(MAX_LINK_REFRESH_BATCH, Math.max(1, Math.ceil(total / runsPerDay)));
}
