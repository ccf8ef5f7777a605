import type { DiscordState } from '../state.js';
import type { SimGuild } from '../types.js';
import { avatar, esc, hexColor, layout } from './html.js';

const MAX_ROWS = 1000;

/** What "View Server" opens: the guild's channels and members with their roles, highest first. */
export function serverPage(state: DiscordState, guild: SimGuild, channelId?: string): string {
  const channels = [...guild.channels.values()]
    .map((c) =>
      c.id === channelId
        ? `<strong># ${esc(c.name)}</strong>`
        : `<a href="/channels/${guild.id}/${c.id}"># ${esc(c.name)}</a>`,
    )
    .join(' · ');
  // Bulk-seeded guilds hold up to hundreds of thousands: the page shows the first rows only.
  const shown = [...guild.members.values()].slice(0, MAX_ROWS);
  const members = shown
    .map((m) => ({ m, u: state.users.get(m.userId)! }))
    .sort((a, b) =>
      (a.m.nick ?? a.u.globalName ?? a.u.username).localeCompare(b.m.nick ?? b.u.globalName ?? b.u.username),
    )
    .map(({ m, u }) => {
      const name = m.nick ?? u.globalName ?? u.username;
      const roles = m.roles
        .map((id) => guild.roles.get(id))
        .filter((r) => r !== undefined)
        .sort((a, b) => b.position - a.position)
        .map((r) => `<span class="role" style="color:${hexColor(r.color)}">${esc(r.name)}</span>`)
        .join('');
      const owner = guild.ownerId === u.id ? ' <span class="muted">(owner)</span>' : '';
      const bot = u.bot ? ' <span class="role" style="color:#5865f2">BOT</span>' : '';
      return `<tr data-user-id="${u.id}"><td>${avatar(name, u.id)}</td><td><strong>${esc(name)}</strong>${bot}${owner}<br>
        <span class="muted">@${esc(u.username)} · ${u.id}</span></td><td>${roles}</td></tr>`;
    })
    .join('');
  const messages = channelId ? messageList(state, channelId) : '';
  const body = `
    <p class="banner">Discord simulator — server view</p>
    <h1 id="guild-name">${esc(guild.name)}</h1>
    <p class="muted">${esc(guild.description ?? '')} · ${guild.members.size} members · id ${guild.id}</p>
    <p>${channels}</p>
    ${messages}
    <h2>Members — ${guild.members.size}</h2>
    ${guild.members.size > MAX_ROWS ? `<p class="muted">Showing ${MAX_ROWS} of ${guild.members.size}.</p>` : ''}
    <table aria-label="Members"><thead><tr><th></th><th>Member</th><th>Roles</th></tr></thead><tbody>${members}</tbody></table>`;
  return layout(`${guild.name} — Discord`, body, { wide: true });
}

function messageList(state: DiscordState, channelId: string): string {
  const list = state.channelMessages(channelId).slice(-50);
  if (!list.length) return '<h2>Messages</h2><p class="muted">No messages yet.</p>';
  const items = list
    .map((m) => {
      const author = state.users.get(m.authorId)!;
      const embeds = m.embeds
        .map((e) => `<div class="muted">[embed] ${esc(e.title ?? '')} ${esc(e.description ?? '')}</div>`)
        .join('');
      return `<li><strong>${esc(author.globalName ?? author.username)}</strong> <span class="muted">${esc(m.timestamp)}</span><br>${esc(m.content)}${embeds}</li>`;
    })
    .join('');
  return `<h2>Messages</h2><ul aria-label="Messages">${items}</ul>`;
}
