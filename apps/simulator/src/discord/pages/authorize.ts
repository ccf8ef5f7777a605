import { discordApp } from '../../demo.js';
import { Permission } from '../permissions.js';
import type { DiscordState } from '../state.js';
import type { SimGuild } from '../types.js';
import { esc, layout } from './html.js';
import { MAX_CONSENT_USERS, userRows } from './user-search.js';

/** The validated authorize request, carried through the form as hidden fields. */
export interface AuthorizeRequest {
  clientId: string;
  scopes: string[];
  responseType: string | null;
  redirectUri: string | null;
  state: string | null;
  prompt: string | null;
  permissions: string | null;
  guildId: string | null;
  disableGuildSelect: boolean;
  integrationType: string | null;
}

const SCOPE_TEXT: Record<string, string> = {
  identify: 'Access your username, avatar, and banner',
  email: 'Access your email address',
  guilds: 'Know what servers you’re in',
  'guilds.members.read': 'Read your member info (nickname, avatar, roles, etc…) for servers you belong to',
  'guilds.join': 'Join servers for you',
  'role_connections.write': 'Update your connection and metadata for this app',
  bot: 'Add a bot to a server',
  'applications.commands': 'Create commands',
  connections: 'Access your third-party connections',
};

/** Users who may add a bot to the guild (owner, Administrator or Manage Server). */
export function canManage(state: DiscordState, guild: SimGuild, userId: string): boolean {
  const perms = state.permissionsOf(guild, userId);
  return (perms & Permission.ManageGuild) !== 0n;
}

/** The request's parameters as the authorize address carries them; null: not given. */
function requestParams(req: AuthorizeRequest): [string, string | null][] {
  return [
    ['client_id', req.clientId],
    ['scope', req.scopes.join(' ')],
    ['response_type', req.responseType],
    ['redirect_uri', req.redirectUri],
    ['state', req.state],
    ['prompt', req.prompt],
    ['permissions', req.permissions],
    ['guild_id', req.guildId],
    ['integration_type', req.integrationType],
    ['disable_guild_select', req.disableGuildSelect ? 'true' : null],
  ];
}

/** The request carried through the form; the server choice is the form's own guild_id field. */
function hidden(req: AuthorizeRequest): string {
  return requestParams(req)
    .filter(([k, v]) => v !== null && k !== 'guild_id')
    .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
    .join('');
}

function guildPicker(state: DiscordState, req: AuthorizeRequest): string {
  if (!req.scopes.includes('bot')) return '';
  if (req.disableGuildSelect && req.guildId) {
    const g = state.guilds.get(req.guildId);
    return `<h2>Add to server</h2><p id="fixed-guild">${esc(g?.name ?? req.guildId)}</p>
      <input type="hidden" name="guild_id" value="${esc(req.guildId)}">`;
  }
  const options = [...state.guilds.values()]
    .map((g) => {
      const managers = [...g.members.keys()].filter((u) => canManage(state, g, u)).join(' ');
      const selected = g.id === req.guildId ? ' selected' : '';
      return `<option value="${g.id}" data-managers="${managers}"${selected}>${esc(g.name)}</option>`;
    })
    .join('');
  return `<h2><label for="guild_id">Add to server</label></h2>
    <select id="guild_id" name="guild_id" aria-label="Server" required>
      <option value="">Select a server</option>${options}</select>
    <p class="muted">Only servers where the selected user has Manage Server permission can be chosen.</p>`;
}

/**
 * The search box asks the simulator for matching users (GET /oauth2/authorize/users, at most 50), keeping
 * the chosen one first; the server list only offers servers the chosen user may manage.
 */
const SCRIPT = `
  const search = document.getElementById('user-search');
  const list = document.getElementById('users');
  const select = document.getElementById('guild_id');
  const sync = () => {
    const picked = document.querySelector('input[name=user_id]:checked')?.value;
    if (!select) return;
    for (const opt of select.options) {
      if (!opt.value) continue;
      opt.disabled = !picked || !opt.dataset.managers.split(' ').includes(picked);
      if (opt.disabled && opt.selected) select.value = '';
    }
  };
  list.addEventListener('change', sync);
  let asked = 0;
  search?.addEventListener('input', async () => {
    const ask = ++asked;
    const picked = document.querySelector('input[name=user_id]:checked')?.value ?? '';
    const query = new URLSearchParams({ q: search.value, selected: picked });
    const res = await fetch('/oauth2/authorize/users?' + query);
    // Only the answer to the latest keystroke counts.
    if (ask !== asked || !res.ok) return;
    list.innerHTML = await res.text();
    list.setAttribute('aria-busy', 'false');
    sync();
  });
  sync();
`;

/** The authorize address again, without prompt=none, through the sign-out that forgets the chosen user. */
export function switchAccountHref(req: AuthorizeRequest): string {
  const params = new URLSearchParams();
  for (const [k, v] of requestParams(req)) if (v !== null && k !== 'prompt') params.set(k, v);
  return `/oauth2/switch-account?${params}`;
}

export function authorizePage(
  state: DiscordState,
  req: AuthorizeRequest,
  opts: { selectedUserId?: string; signedInUserId?: string; error?: string } = {},
): string {
  // Someone is always chosen (the signed-in user, else the first), so Authorize works on the first click.
  const chosen = opts.selectedUserId ?? opts.signedInUserId;
  const scopes = req.scopes.map((s) => `<li>${esc(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  const body = `
    <p class="banner">Discord simulator — pick who you are instead of logging in.</p>
    <h1>${esc(discordApp.botUsername)} wants to access your account</h1>
    <p class="muted">Application ${esc(req.clientId)}</p>
    ${opts.error ? `<p class="error" role="alert">${esc(opts.error)}</p>` : ''}
    <form method="post" action="/oauth2/authorize">
      ${hidden(req)}
      <h2><label for="user-search">Signed in as</label></h2>
      ${
        opts.signedInUserId && state.users.has(opts.signedInUserId)
          ? `<p class="signed-in">${esc(state.users.get(opts.signedInUserId)?.username ?? '')}
        <a href="${esc(switchAccountHref(req))}" class="switch">Switch account</a></p>`
          : ''
      }
      <input type="search" id="user-search" placeholder="Search users by name or id" autocomplete="off"
        aria-describedby="user-search-hint">
      <p class="muted" id="user-search-hint">Shows at most ${MAX_CONSENT_USERS} users; type to find others.</p>
      <div class="users" id="users" role="radiogroup" aria-label="Users" aria-live="polite">${userRows(state, '', chosen)}</div>
      ${guildPicker(state, req)}
      <h2>This will allow the developer to</h2>
      <ul class="scopes">${scopes}</ul>
      ${req.redirectUri ? `<p class="muted">You will be redirected to ${esc(req.redirectUri)}</p>` : ''}
      <div class="actions">
        <button type="submit" name="decision" value="cancel" class="secondary" formnovalidate>Cancel</button>
        <button type="submit" name="decision" value="authorize" class="primary">Authorize</button>
      </div>
    </form>`;
  return layout(`Authorize ${discordApp.botUsername}`, body, { script: SCRIPT });
}

export function errorPage(message: string): string {
  return layout(
    'Discord — error',
    `<h1>Something went wrong</h1><p class="error" role="alert">${esc(message)}</p>`,
  );
}

export function installedPage(guild: SimGuild): string {
  return layout(
    'Authorized',
    `<h1>Authorized</h1><p id="installed">${esc(discordApp.botUsername)} has been added to <strong>${esc(guild.name)}</strong>.</p>
     <p><a href="/channels/${guild.id}">Go to ${esc(guild.name)}</a></p>`,
  );
}

export function signedOutPage(): string {
  return layout(
    'Signed out',
    `<h1>Signed out</h1><p id="signed-out">You are signed out of the simulated Discord. Log in again from the app
     to choose who you are.</p>`,
  );
}
