import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, unwrap } from './client';
import { ApiError, errorMessage } from './errors';
import { assertPathParams } from './requiredParams';

const fetchMock = vi.fn<(request: Request) => Promise<Response>>();

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(document, 'cookie', 'get').mockReturnValue('theme=dark; XSRF-TOKEN=token%2Fvalue');
});

describe('path parameter check', () => {
  it('names the operation by method and path when the document has no operationId for it', () => {
    expect(() => assertPathParams('GET', '/api/not-documented/{itemId}', { itemId: undefined })).toThrow(
      'Required parameter itemId was null or undefined when calling GET /api/not-documented/{itemId}',
    );
  });

  it('names the operation by its operationId when the document has one', () => {
    const documented = Object.entries(__VRCLINK_OPERATION_IDS__).find(([key]) => key.includes('{'));
    if (!documented) return;
    const [key, operationId] = documented;
    const [method, path] = key.split(' ');
    const name = /\{([^{}]+)\}/.exec(path)![1];
    expect(() => assertPathParams(method, path, {})).toThrow(
      `Required parameter ${name} was null or undefined when calling ${operationId}`,
    );
  });

  it('fails when a later path parameter is null', () => {
    expect(() =>
      assertPathParams('DELETE', '/api/users/guests/{guildId}/unassign/{guestEntryId}', {
        guildId: '1',
        guestEntryId: null,
      }),
    ).toThrow(/^Required parameter guestEntryId was null or undefined when calling /);
  });

  it('accepts present parameters, including 0 and empty strings', () => {
    expect(() => assertPathParams('GET', '/x/{a}/{b}', { a: 0, b: '' })).not.toThrow();
  });

  it('rejects a client call with a missing parameter without calling fetch', async () => {
    const call = api.GET as unknown as (path: string, init: object) => Promise<unknown>;
    await expect(
      call('/api/users/guests/{guildId}', { params: { path: { guildId: null } } }),
    ).rejects.toThrow(/^Required parameter guildId was null or undefined when calling \S+/);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('XSRF and content type', () => {
  it('sends the XSRF cookie as X-XSRF-TOKEN and the patch-JSON type on POST', async () => {
    fetchMock.mockResolvedValue(json({ id: '1', username: 'a', avatar: null, rank: 'User' }));
    await api.POST('/api/login/callback', { body: { code: 'c', state: 's' } });
    const request = fetchMock.mock.calls[0][0];
    expect(request.method).toBe('POST');
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('token/value');
    expect(request.headers.get('Content-Type')).toBe('application/json-patch+json');
    expect(request.credentials).toBe('include');
    expect(await request.json()).toEqual({ code: 'c', state: 's' });
  });

  it('also sends the XSRF header on GET, which the server needs for state-changing GETs like logout', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await api.GET('/api/logout');
    const request = fetchMock.mock.calls[0][0];
    expect(request.headers.get('X-XSRF-TOKEN')).toBe('token/value');
    expect(request.headers.has('Content-Type')).toBe(false);
  });

  it('sends no XSRF header when there is no cookie yet', async () => {
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('');
    fetchMock.mockResolvedValue(json({ status: 'ok' }));
    await api.GET('/api/health');
    expect(fetchMock.mock.calls[0][0].headers.has('X-XSRF-TOKEN')).toBe(false);
  });
});

describe('failures', () => {
  it('turns an error answer into an ApiError with the server message', async () => {
    fetchMock.mockResolvedValue(json({ message: 'Login failed.' }, 400));
    const error = await unwrap(api.POST('/api/login/callback', { body: { code: 'c', state: 's' } })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('bad-request');
    expect(errorMessage(error, 'fallback')).toBe('Login failed.');
  });

  it('classifies 5xx as a bad response and falls back when there is no message', async () => {
    fetchMock.mockResolvedValue(new Response('oops', { status: 502 }));
    const error = (await unwrap(api.GET('/api/user')).catch((e: unknown) => e)) as ApiError;
    expect(error.kind).toBe('bad-response');
    expect(errorMessage(error, 'Failed to load')).toBe('Failed to load');
  });

  it('classifies network errors, aborts and time-outs', async () => {
    const kinds: string[] = [];
    for (const thrown of [
      new TypeError('fetch failed'),
      new DOMException('aborted', 'AbortError'),
      new DOMException('timed out', 'TimeoutError'),
    ]) {
      fetchMock.mockRejectedValueOnce(thrown);
      const error = (await api.GET('/api/user').catch((e: unknown) => e)) as ApiError;
      kinds.push(error.kind);
    }
    expect(kinds).toEqual(['network', 'aborted', 'timeout']);
  });
});
