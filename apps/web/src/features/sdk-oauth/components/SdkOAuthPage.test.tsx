import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { demoConfig, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { DENY_FAILED_MESSAGE, MISSING_TOKEN_MESSAGE } from './SdkOAuthPage';

const TOKEN = 'sdk-request-token-123';
// The request checks out (the page asks before offering Allow).
const asUser = { ...loggedInAs('User'), 'GET /api/oauth-request': { status: 204 } };
const allowButton = () => screen.findByRole('button', { name: 'Allow' });

describe('SDK OAuth page', () => {
  it('says the Unity editor wants access to the signed-in account', async () => {
    stubApi(asUser);
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Authorize application' })).toBeTruthy();
    expect((await screen.findByText(/wants access to your/)).textContent).toContain(
      'VRChat SDK in the Unity editor',
    );
    expect(screen.getByText(/wants access to your/).textContent).toContain('(@neon)');
    expect(screen.getByRole('button', { name: 'Deny' })).toBeTruthy();
  });

  it('approves the token on Allow and shows that access was granted', async () => {
    const fetchMock = stubApi({ ...asUser, 'POST /api/oauth-approve': { status: 204 } });
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await allowButton());
    expect(await screen.findByText('Access granted')).toBeTruthy();
    expect(screen.getByText(/return to Unity/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
    const post = fetchMock.mock.calls.map(([r]) => r).find((r) => r.method === 'POST')!;
    expect(new URL(post.url).pathname).toBe('/api/oauth-approve');
    expect(await post.json()).toEqual({ token: TOKEN });
  });

  it('refuses the request on Deny (so the editor stops waiting) and goes home without approving', async () => {
    const fetchMock = stubApi({
      ...asUser,
      'GET /api/config': { body: demoConfig },
      'POST /api/oauth-deny': { status: 204 },
    });
    const { router } = renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const posts = fetchMock.mock.calls.map(([r]) => r).filter((r) => r.method === 'POST');
    expect(posts.map((r) => new URL(r.url).pathname)).toEqual(['/api/oauth-deny']);
    expect(await posts[0]!.json()).toEqual({ token: TOKEN });
  });

  it('goes home on Deny when the request is already dead (4xx)', async () => {
    stubApi({
      ...asUser,
      'GET /api/config': { body: demoConfig },
      'POST /api/oauth-deny': { status: 410, body: { message: 'This sign-in request has expired.' } },
    });
    const { router } = renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says so when Deny cannot reach the server, and stays', async () => {
    stubApi(asUser);
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (request: Request) =>
      request.method === 'POST' ? Promise.reject(new TypeError('fetch failed')) : realFetch(request),
    );
    const { router } = renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText(DENY_FAILED_MESSAGE)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sdk-oauth');
  });

  it.each([
    [400, 'This sign-in link is not valid. Start the login again from the VRChat SDK in Unity.'],
    [404, 'This sign-in request was not found.'],
    [409, 'This sign-in request was already used.'],
    [410, 'This sign-in request has expired. Start again from the SDK.'],
  ])('refuses a request the server answers %i for before asking "Allow?"', async (status, message) => {
    const fetchMock = stubApi({
      ...asUser,
      'GET /api/oauth-request': { status, body: { message } },
    });
    renderApp('/sdk-oauth?token=abc');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Cannot sign in')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
    expect(screen.queryByText(/wants access to your/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Back to home' })).toBeTruthy();
    expect(fetchMock.mock.calls.some(([r]) => r.method === 'POST')).toBe(false);
  });

  it.each([
    [404, 'This sign-in request was not found.'],
    [409, 'This sign-in request was already used.'],
    [410, 'This sign-in request has expired. Start again from the SDK.'],
  ])('shows the server message when approval answers %i, and disables Allow', async (status, message) => {
    stubApi({ ...asUser, 'POST /api/oauth-approve': { status, body: { message } } });
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await allowButton());
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Access not granted')).toBeTruthy();
    expect(screen.queryByText('Access granted')).toBeNull();
    expect((await allowButton()).hasAttribute('disabled')).toBe(true);
  });

  it('lets the user try again after a network failure', async () => {
    stubApi(asUser);
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (request: Request) =>
      request.method === 'POST' ? Promise.reject(new TypeError('fetch failed')) : realFetch(request),
    );
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await allowButton());
    expect(await screen.findByText('The sign-in request could not be approved.')).toBeTruthy();
    expect((await allowButton()).hasAttribute('disabled')).toBe(false);
  });

  it('explains a link without a token and does not offer Allow', async () => {
    const fetchMock = stubApi(asUser);
    renderApp('/sdk-oauth');
    expect(await screen.findByText(MISSING_TOKEN_MESSAGE)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
    expect(fetchMock.mock.calls.some(([r]) => r.method === 'POST')).toBe(false);
  });
});
