import type { users } from '../db/schema/index.js';

/**
 * Who acts: a signed-in user, a server's API key, the bot reacting to Discord, or a background job.
 * Permission checks and the audit log take this value, so they can tell the four apart; the bot and jobs
 * act through an explicit path (`systemActor`) that skips per-user permission checks and is audit-logged.
 */
export type Actor =
  | { kind: 'user'; userId: string }
  | { kind: 'apiKey'; keyId: string }
  | { kind: 'bot' }
  | { kind: 'job'; job: string };

export const userActor = (userId: string): Actor => ({ kind: 'user', userId });
export const apiKeyActor = (keyId: string): Actor => ({ kind: 'apiKey', keyId });
export const botActor: Actor = { kind: 'bot' };
export const jobActor = (job: string): Actor => ({ kind: 'job', job });

/** True for the bot and jobs: they act for the product, not for a person. */
export const isSystemActor = (a: Actor): a is Extract<Actor, { kind: 'bot' | 'job' }> =>
  a.kind === 'bot' || a.kind === 'job';

/** The audit log's `actor_id`: the user's id, `apikey:<id>`, `bot`, or `job:<name>`. */
export function actorId(a: Actor): string {
  switch (a.kind) {
    case 'user':
      return a.userId;
    case 'apiKey':
      return `apikey:${a.keyId}`;
    case 'bot':
      return 'bot';
    case 'job':
      return `job:${a.job}`;
  }
}

/** API key tokens carry a prefix so a leaked one is recognisable (and so auth can tell keys from sessions). */
export const API_KEY_PREFIX = 'vrcl_';

export type SessionKind = 'web' | 'sdk';
export type UserRow = typeof users.$inferSelect;

/** A signed-in caller: the session's user and kind (identity's findSession answers it). */
export interface ActiveSession {
  user: UserRow;
  kind: SessionKind;
  tokenHash: string;
}

/** A live API key behind a Bearer token (access's findApiKey answers it). */
export interface ActiveApiKey {
  id: string;
  guildId: string;
  permissions: string[];
}
