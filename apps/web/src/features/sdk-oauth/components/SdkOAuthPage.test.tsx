import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { demoConfig, loggedInAs, renderApp, stubApi } from '../../../testing/renderApp';
import { DENY_FAILED_MESSAGE, MISSING_TOKEN_MESSAGE } from './SdkOAuthPage';

const TOKEN = 'sdk-request-token-123';
const allowButton = () => screen.findByRole('button', { name: 'Allow' });

describe('SDK OAuth page', () => {
  it('says the Unity editor wants access to the signed-in account', async () => {
    stubApi(loggedInAs('User'));
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Authorize application' })).toBeTruthy();
    expect(screen.getByText(/wants access to your/).textContent).toContain('VRChat SDK in the Unity editor');
    expect(screen.getByText(/wants access to your/).textContent).toContain('(@neon)');
    expect(screen.getByRole('button', { name: 'Deny' })).toBeTruthy();
  });

  it('approves the token on Allow and shows that access was granted', async () => {
    const fetchMock = stubApi({ ...loggedInAs('User'), 'POST /api/oauth-approve': { status: 204 } });
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
      ...loggedInAs('User'),
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
      ...loggedInAs('User'),
      'GET /api/config': { body: demoConfig },
      'POST /api/oauth-deny': { status: 410, body: { message: 'This sign-in request has expired.' } },
    });
    const { router } = renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('says so when Deny cannot reach the server, and stays', async () => {
    stubApi(loggedInAs('User'));
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (request: Request) =>
      request.method === 'POST' ? Promise.reject(new TypeError('fetch failed')) : realFetch(request),
    );
    const { router } = renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText(DENY_FAILED_MESSAGE)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/sdk-oauth');
  });

  it('shows the server sentence for a malformed token', async () => {
    const message = 'This sign-in link is not valid. Start the login again from the VRChat SDK in Unity.';
    stubApi({ ...loggedInAs('User'), 'POST /api/oauth-approve': { status: 400, body: { message } } });
    renderApp('/sdk-oauth?token=abc');
    fireEvent.click(await allowButton());
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it.each([
    [404, 'This sign-in request was not found.'],
    [409, 'This sign-in request was already used.'],
    [410, 'This sign-in request has expired. Start again from the SDK.'],
  ])('shows the server message when approval answers %i, and disables Allow', async (status, message) => {
    stubApi({ ...loggedInAs('User'), 'POST /api/oauth-approve': { status, body: { message } } });
    renderApp(`/sdk-oauth?token=${TOKEN}`);
    fireEvent.click(await allowButton());
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('Access not granted')).toBeTruthy();
    expect(screen.queryByText('Access granted')).toBeNull();
    expect((await allowButton()).hasAttribute('disabled')).toBe(true);
  });

  it('lets the user try again after a network failure', async () => {
    stubApi(loggedInAs('User'));
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
    const fetchMock = stubApi(loggedInAs('User'));
    renderApp('/sdk-oauth');
    expect(await screen.findByText(MISSING_TOKEN_MESSAGE)).toBeTruthy();
    expect((await allowButton()).hasAttribute('disabled')).toBe(true);
    expect(fetchMock.mock.calls.some(([r]) => r.method === 'POST')).toBe(false);
  });
});
