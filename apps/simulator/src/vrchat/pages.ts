import type { FastifyInstance, FastifyReply } from 'fastify';
import { useVrchatBodyParsers } from './body-parsers.js';
import { imagePaths } from './images.js';
import { BIO_MAX, patchGroup, patchUser } from './mutations.js';
import { memberCounts } from './serialize-groups.js';
import type { VrchatState, VrcUser } from './state.js';

/**
 * Stand-ins for vrchat.com/home pages: where a person looks at a profile or group and edits their bio
 * (e.g. to paste a verification code) or a group's description. No login, no styling ambitions.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - VRChat (simulator)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;background:#0f1a1f;color:#e6eef0;margin:0}
header{background:#07242b;padding:.75rem 1.5rem}header a{color:#1fd1ed;text-decoration:none;font-weight:600}
main{max-width:56rem;margin:1.5rem auto;padding:0 1.5rem}a{color:#1fd1ed}
.card{background:#182b31;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.badge{display:inline-block;border-radius:4px;padding:.1rem .4rem;font-size:.8rem;background:#2c4a52;margin-left:.4rem}
.badge.adult{background:#6b3fa0}textarea{width:100%;min-height:6rem;font:inherit;background:#0f1a1f;color:inherit;border:1px solid #2c4a52;border-radius:4px;padding:.5rem;box-sizing:border-box}
button{background:#1fd1ed;color:#07242b;border:0;border-radius:4px;padding:.45rem 1rem;font-weight:600;cursor:pointer;margin-top:.5rem}
img{border-radius:6px;vertical-align:middle}.muted{color:#8aa3a9}.saved{color:#7be08f}ul{padding-left:1.2rem}
</style></head><body><header><a href="/home">VRChat</a> <span class="muted">· local simulator</span></header>
<main>${body}</main></body></html>`;
}

function ageBadge(u: VrcUser): string {
  if (u.ageVerificationStatus === '18+') return '<span class="badge adult">18+ Age Verified</span>';
  if (u.ageVerificationStatus === 'verified') return '<span class="badge">Age Verified</span>';
  return '';
}

const html = (reply: FastifyReply, status: number, page: string) =>
  reply.code(status).type('text/html; charset=utf-8').send(page);

const notFound = (reply: FastifyReply, what: string) =>
  html(reply, 404, layout('Not found', `<div class="card"><h1>Not found</h1><p>${esc(what)}</p></div>`));

/** Pages list at most this many users or members (bulk-seeded groups have tens of thousands). */
const PAGE_LIST_MAX = 500;

export async function registerPages(app: FastifyInstance, state: VrchatState): Promise<void> {
  await app.register(async (web) => {
    useVrchatBodyParsers(web);

    web.get('/home', async (_req, reply) => {
      const users = [...state.users.values()]
        .slice(0, PAGE_LIST_MAX)
        .map((u) => `<li><a href="/home/user/${u.id}">${esc(u.displayName)}</a>${ageBadge(u)}</li>`)
        .join('');
      const groups = [...state.groups.values()]
        .map(
          (g) =>
            `<li><a href="/home/group/${g.id}">${esc(g.name)}</a> <span class="muted">${esc(g.shortCode)}.${esc(g.discriminator)} · ${g.joinState}</span></li>`,
        )
        .join('');
      return html(
        reply,
        200,
        layout(
          'Home',
          `<h1>Home</h1><div class="card"><h2>Groups</h2><ul>${groups}</ul></div><div class="card"><h2>Users</h2><ul>${users}</ul></div>`,
        ),
      );
    });

    web.get<{ Params: { userId: string }; Querystring: { saved?: string } }>(
      '/home/user/:userId',
      async (req, reply) => {
        const u = state.users.get(req.params.userId);
        if (!u) return notFound(reply, 'This user does not exist.');
        const links = u.bioLinks
          .map((l) => `<li><a href="${esc(l)}" rel="nofollow">${esc(l)}</a></li>`)
          .join('');
        const groups = state
          .userMemberships(u.id, 'member')
          .map((m) => state.groups.get(m.groupId)!)
          .map((g) => `<li><a href="/home/group/${g.id}">${esc(g.name)}</a></li>`)
          .join('');
        const body = `
<div class="card">
  <img src="${imagePaths.avatarThumbnail(u.id)}" alt="" width="64" height="48">
  <h1 style="display:inline;margin-left:.5rem">${esc(u.displayName)}</h1>${ageBadge(u)}
  <p class="muted">${esc(u.id)} · ${esc(u.status)}${u.statusDescription ? ` — ${esc(u.statusDescription)}` : ''}${u.pronouns ? ` · ${esc(u.pronouns)}` : ''} · joined ${esc(u.dateJoined)}</p>
</div>
<div class="card">
  <h2>Bio</h2>
  <p data-testid="bio" style="white-space:pre-wrap">${esc(u.bio) || '<span class="muted">No bio yet.</span>'}</p>
  ${links ? `<ul>${links}</ul>` : ''}
  <form method="post" action="/home/user/${u.id}/bio">
    <textarea name="bio" aria-label="Bio" maxlength="${BIO_MAX}">${esc(u.bio)}</textarea>
    <button type="submit">Save</button>
    ${req.query.saved ? '<span class="saved" role="status"> Saved.</span>' : ''}
  </form>
</div>
<div class="card"><h2>Groups</h2>${groups ? `<ul>${groups}</ul>` : '<p class="muted">None.</p>'}</div>`;
        return html(reply, 200, layout(u.displayName, body));
      },
    );

    web.post<{ Params: { userId: string } }>('/home/user/:userId/bio', async (req, reply) => {
      if (!state.users.has(req.params.userId)) return notFound(reply, 'This user does not exist.');
      const bio = String((req.body as { bio?: unknown } | undefined)?.bio ?? '').replace(/\r\n/g, '\n');
      if (bio.length > BIO_MAX)
        return html(reply, 400, layout('Bio too long', `<p>Bio is limited to ${BIO_MAX} characters.</p>`));
      patchUser(state, req.params.userId, { bio });
      return reply.redirect(`/home/user/${req.params.userId}?saved=1`, 303);
    });

    web.get<{ Params: { groupId: string }; Querystring: { saved?: string } }>(
      '/home/group/:groupId',
      async (req, reply) => {
        const g = state.groups.get(req.params.groupId);
        if (!g) return notFound(reply, "Can't find group!");
        const roles = state.groupRoles(g.id);
        const members = state
          .groupMemberships(g.id, 'member')
          .slice(0, PAGE_LIST_MAX)
          .map((m) => {
            const names = m.roleIds.map((id) => roles.find((r) => r.id === id)?.name ?? id).join(', ');
            return `<li><a href="/home/user/${m.userId}">${esc(state.displayName(m.userId))}</a>${names ? ` <span class="muted">${esc(names)}</span>` : ''}</li>`;
          })
          .join('');
        const counts = memberCounts(state, g.id);
        const body = `
<div class="card">
  <img src="${imagePaths.groupIcon(g.id)}" alt="" width="48" height="48">
  <h1 style="display:inline;margin-left:.5rem">${esc(g.name)}</h1>
  <p class="muted">${esc(g.shortCode)}.${esc(g.discriminator)} · ${esc(g.id)} · join: ${g.joinState} · ${counts.memberCount} members (${counts.onlineMemberCount} online)</p>
</div>
<div class="card">
  <h2>Description</h2>
  <p data-testid="description" style="white-space:pre-wrap">${esc(g.description)}</p>
  <form method="post" action="/home/group/${g.id}/description">
    <textarea name="description" aria-label="Description" maxlength="250">${esc(g.description)}</textarea>
    <button type="submit">Save</button>
    ${req.query.saved ? '<span class="saved" role="status"> Saved.</span>' : ''}
  </form>
</div>
<div class="card"><h2>Roles</h2><ol start="0">${roles.map((r) => `<li>${esc(r.name)}</li>`).join('')}</ol></div>
<div class="card"><h2>Members</h2><p><a href="/home/group/${g.id}/members/invites">Invites &amp; Join Requests</a></p><ul>${members}</ul></div>`;
        return html(reply, 200, layout(g.name, body));
      },
    );

    // vrchat.com's group management page for pending invites and join requests (the dashboard's
    // 'Code found' dialog links here): the owner accepts or rejects requests and invites users.
    web.get<{ Params: { groupId: string }; Querystring: { done?: string } }>(
      '/home/group/:groupId/members/invites',
      async (req, reply) => {
        const g = state.groups.get(req.params.groupId);
        if (!g) return notFound(reply, "Can't find group!");
        const person = (userId: string) =>
          `<a href="/home/user/${userId}">${esc(state.displayName(userId))}</a> <span class="muted">${esc(userId)}</span>`;
        const requests = state
          .groupMemberships(g.id, 'requested')
          .filter((m) => !m.requestBlocked)
          .slice(0, PAGE_LIST_MAX)
          .map(
            (m) => `<li>${person(m.userId)}
  <form method="post" action="/home/group/${g.id}/members/requests/${m.userId}" style="display:inline">
    <button type="submit" name="action" value="accept">Accept</button>
    <button type="submit" name="action" value="reject">Reject</button>
  </form></li>`,
          )
          .join('');
        const invites = state
          .groupMemberships(g.id, 'invited')
          .slice(0, PAGE_LIST_MAX)
          .map((m) => `<li>${person(m.userId)}</li>`)
          .join('');
        const body = `
<div class="card">
  <h1><a href="/home/group/${g.id}">${esc(g.name)}</a> · Invites &amp; Join Requests</h1>
  <p class="muted">join: ${g.joinState}</p>
  ${req.query.done ? '<p class="saved" role="status">Done.</p>' : ''}
</div>
<div class="card"><h2>Join Requests</h2>${requests ? `<ul>${requests}</ul>` : '<p class="muted">No pending join requests.</p>'}</div>
<div class="card"><h2>Invites</h2>${invites ? `<ul>${invites}</ul>` : '<p class="muted">No pending invites.</p>'}
  <form method="post" action="/home/group/${g.id}/members/invites">
    <input name="userId" aria-label="User ID" placeholder="usr_…" required>
    <button type="submit">Invite</button>
  </form>
</div>`;
        return html(reply, 200, layout(`${g.name} · Invites`, body));
      },
    );

    web.post<{ Params: { groupId: string; userId: string } }>(
      '/home/group/:groupId/members/requests/:userId',
      async (req, reply) => {
        const g = state.groups.get(req.params.groupId);
        if (!g) return notFound(reply, "Can't find group!");
        const action = String((req.body as { action?: unknown } | undefined)?.action ?? '');
        const m = state.membership(g.id, req.params.userId);
        if ((action !== 'accept' && action !== 'reject') || m?.status !== 'requested' || m.requestBlocked)
          return html(
            reply,
            400,
            layout('No such request', '<p>There is no pending join request to answer.</p>'),
          );
        const name = state.displayName(m.userId);
        if (action === 'accept' && state.atGroupLimit(m.userId)) return tooManyGroupsPage(reply, name);
        if (action === 'accept') state.putMembership(g.id, m.userId, 'member').acceptedById = g.ownerId;
        else state.deleteMembership(g.id, m.userId);
        state.addAudit({
          groupId: g.id,
          actorId: g.ownerId,
          targetId: m.userId,
          eventType: action === 'accept' ? 'group.request.accept' : 'group.request.reject',
          description: `${state.displayName(g.ownerId)} ${action === 'accept' ? 'accepted' : 'rejected'} the join request of ${name}.`,
          data: {},
        });
        return reply.redirect(`/home/group/${g.id}/members/invites?done=1`, 303);
      },
    );

    web.post<{ Params: { groupId: string } }>('/home/group/:groupId/members/invites', async (req, reply) => {
      const g = state.groups.get(req.params.groupId);
      if (!g) return notFound(reply, "Can't find group!");
      const userId = String((req.body as { userId?: unknown } | undefined)?.userId ?? '').trim();
      const existing = state.membership(g.id, userId);
      if (!state.users.has(userId) || (existing && existing.status !== 'requested'))
        return html(reply, 400, layout('Cannot invite', '<p>That user cannot be invited.</p>'));
      if (state.atGroupLimit(userId)) return tooManyGroupsPage(reply, state.displayName(userId));
      state.putMembership(g.id, userId, 'invited').acceptedById = g.ownerId;
      state.addAudit({
        groupId: g.id,
        actorId: g.ownerId,
        targetId: userId,
        eventType: 'group.invite.create',
        description: `${state.displayName(g.ownerId)} invited ${state.displayName(userId)} to the group.`,
        data: {},
      });
      return reply.redirect(`/home/group/${g.id}/members/invites?done=1`, 303);
    });

    web.post<{ Params: { groupId: string } }>('/home/group/:groupId/description', async (req, reply) => {
      if (!state.groups.has(req.params.groupId)) return notFound(reply, "Can't find group!");
      const description = String((req.body as { description?: unknown } | undefined)?.description ?? '');
      if (description.length > 250)
        return html(reply, 400, layout('Too long', '<p>Descriptions are limited to 250 characters.</p>'));
      patchGroup(state, req.params.groupId, { description: description.replace(/\r\n/g, '\n') });
      return reply.redirect(`/home/group/${req.params.groupId}?saved=1`, 303);
    });
  });
}

/** The group limit on the owner's page: the API's words (errors.ts tooManyGroups), nothing changed. */
function tooManyGroupsPage(reply: FastifyReply, name: string) {
  return html(
    reply,
    403,
    layout('Too many groups', `<p>${esc(name)} can't join right now because they're in too many groups․</p>`),
  );
}
