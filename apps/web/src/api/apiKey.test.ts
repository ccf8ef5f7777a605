import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_STORAGE, configuredApiKey } from './apiKey';
import { api } from './client';

const fetchMock = vi.fn<(request: Request) => Promise<Response>>();
const ok = () =>
  new Response(JSON.stringify({ status: 'ok' }), { headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => ok());
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  localStorage.removeItem(API_KEY_STORAGE);
  vi.unstubAllEnvs();
});

describe('the configured API key (spec admin-area §6)', () => {
  it('sends no Authorization header when no key is configured, and keeps sending cookies', async () => {
    await api.GET('/api/health');
    const request = fetchMock.mock.calls[0][0];
    expect(request.headers.has('Authorization')).toBe(false);
    expect(request.credentials).toBe('include');
  });

  it("sends the browser's stored key as a Bearer token on every call, read per call", async () => {
    localStorage.setItem(API_KEY_STORAGE, '  vrcl_stored  ');
    await api.GET('/api/health');
    expect(fetchMock.mock.calls[0][0].headers.get('Authorization')).toBe('Bearer vrcl_stored');
    localStorage.removeItem(API_KEY_STORAGE);
    await api.GET('/api/health');
    expect(fetchMock.mock.calls[1][0].headers.has('Authorization')).toBe(false);
  });

  it("falls back to the build's VITE_API_KEY; a stored key wins over it", async () => {
    vi.stubEnv('VITE_API_KEY', 'vrcl_built');
    expect(configuredApiKey()).toBe('vrcl_built');
    await api.GET('/api/health');
    expect(fetchMock.mock.calls[0][0].headers.get('Authorization')).toBe('Bearer vrcl_built');
    localStorage.setItem(API_KEY_STORAGE, 'vrcl_stored');
    expect(configuredApiKey()).toBe('vrcl_stored');
  });

  it('treats an empty value as no key', () => {
    localStorage.setItem(API_KEY_STORAGE, '   ');
    vi.stubEnv('VITE_API_KEY', '');
    expect(configuredApiKey()).toBeUndefined();
  });
});
