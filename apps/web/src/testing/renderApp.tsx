import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { Providers } from '../app/Providers';
import { createQueryClient } from '../app/queryClient';
import { routes } from '../app/routes';

type Answer = {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answers only after this long (a slow platform); fake timers advance it. */
  delayMs?: number;
};
/** Stubbed answers keyed by `METHOD /path`. */
export type Answers = Record<string, Answer>;

export const demoConfig = {
  inviteUrl: 'https://discord.example/oauth2/authorize?client_id=1&scope=bot+applications.commands',
  supportUrl: 'https://discord.example/invite/support',
  contactEmail: 'privacy@vrclink.example',
  discordWebUrl: 'https://discord.example',
  vrchatWebUrl: 'https://vrchat.example',
  demoMode: true,
};

/** Stubs fetch with answers keyed by `METHOD /path`; unknown calls get a 404. Returns the mock. */
export function stubApi(answers: Answers) {
  const fetchMock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const answer = answers[`${request.method} ${url.pathname}`] ?? {
      status: 404,
      body: { message: 'Not found.' },
    };
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    const status = answer.status ?? 200;
    if (status === 204) return new Response(null, { status });
    return new Response(JSON.stringify(answer.body ?? {}), {
      status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export const loggedOut = { 'GET /api/user': { status: 401, body: { message: 'Not logged in.' } } };
export const loggedInAs = (rank: 'Admin' | 'User', username = 'neon') => ({
  'GET /api/user': { body: { id: '42', username, avatar: null, rank } },
});

/** Renders the whole app (providers + route table) at a path. */
export function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}

/** The requests the stubbed fetch received for `METHOD /path`. */
export function callsTo(
  fetchMock: { mock: { calls: [Request][] } },
  method: string,
  path: string,
): Request[] {
  return fetchMock.mock.calls
    .map(([request]) => request)
    .filter((request) => request.method === method && new URL(request.url).pathname === path);
}
