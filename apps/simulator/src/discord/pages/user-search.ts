import type { DiscordState } from '../state.js';
import type { SimUser } from '../types.js';
import { avatar, esc } from './html.js';

/** The consent page shows at most this many users; a search narrows them down. */
export const MAX_CONSENT_USERS = 50;

/**
 * Human users matching `query` (case-insensitive part of the username or display name, or the exact id),
 * in creation order, at most `limit`. Stops at the limit, so a server of 100,000 members costs one pass at
 * worst and usually far less.
 */
export function searchUsers(state: DiscordState, query: string, limit = MAX_CONSENT_USERS): SimUser[] {
  const q = query.trim().toLowerCase();
  const found: SimUser[] = [];
  if (q && state.users.get(q) && !state.users.get(q)?.bot) found.push(state.users.get(q)!);
  for (const user of state.users.values()) {
    if (found.length >= limit) break;
    if (user.bot || found[0] === user) continue;
    if (!q || user.username.toLowerCase().includes(q) || (user.globalName ?? '').toLowerCase().includes(q))
      found.push(user);
  }
  return found;
}

/** One choosable user: a radio named `user_id` labelled by the username. */
export function userRow(user: SimUser, checked: boolean): string {
  const name = user.globalName ?? user.username;
  return `<label class="user">
        <input type="radio" name="user_id" value="${user.id}" id="user-${user.id}" aria-label="${esc(user.username)}" required${checked ? ' checked' : ''}>
        ${avatar(name, user.id)}<span><strong>${esc(name)}</strong> <span class="muted">@${esc(user.username)}</span></span></label>`;
}

/**
 * The rows for a query, the chosen user first when there is one (so a signed-in or previously picked
 * account stays choosable whatever the search), then matches, 50 in all; a sentence when nothing matches.
 */
export function userRows(state: DiscordState, query: string, chosenId?: string): string {
  const found = chosenId ? state.users.get(chosenId) : undefined;
  const chosen = found && !found.bot ? found : undefined;
  const matches = searchUsers(state, query, MAX_CONSENT_USERS + 1).filter((u) => u !== chosen);
  const list = (chosen ? [chosen, ...matches] : matches).slice(0, MAX_CONSENT_USERS);
  if (!list.length) return '<p class="muted" id="no-users">No user matches this search.</p>';
  return list.map((u, i) => userRow(u, i === 0)).join('');
}
