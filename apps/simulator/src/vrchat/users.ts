import type { FastifyInstance } from 'fastify';
import { requireCaller } from './auth.js';
import { userNotFound } from './errors.js';
import { page, paging, str } from './query.js';
import { toLimitedUserSearch, toUser } from './serialize.js';
import { toLimitedUserGroup } from './serialize-groups.js';
import type { VrchatState } from './state.js';

export function registerUserRoutes(api: FastifyInstance, state: VrchatState, baseUrl: () => string): void {
  api.get('/users', async (req) => {
    requireCaller(state, req);
    const paged = paging(req.query);
    const search = (str(req.query, 'search') ?? '').trim().toLowerCase();
    const developerType = str(req.query, 'developerType');
    // An empty search matches nobody rather than everybody, as on the real API.
    if (!search) return [];
    const hits = [...state.users.values()].filter(
      (u) =>
        u.displayName.toLowerCase().includes(search) && (!developerType || u.developerType === developerType),
    );
    return page(hits, paged).map((u) => toLimitedUserSearch(baseUrl(), u));
  });

  api.get<{ Params: { userId: string } }>('/users/:userId', async (req) => {
    requireCaller(state, req);
    const user = state.users.get(req.params.userId);
    if (!user) throw userNotFound();
    return toUser(baseUrl(), user);
  });

  api.get<{ Params: { userId: string } }>('/users/:userId/groups', async (req) => {
    const caller = requireCaller(state, req);
    const user = state.users.get(req.params.userId);
    if (!user) throw userNotFound();
    return state
      .userMemberships(user.id, 'member')
      .filter((m) => m.visibility !== 'hidden' || m.userId === caller.user.id)
      .map((m) => toLimitedUserGroup(baseUrl(), state, state.groups.get(m.groupId)!, m));
  });
}
