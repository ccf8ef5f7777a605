import type { Middleware } from 'openapi-fetch';

/** The browser's own setting (devtools or a self-hosted page's script): `localStorage.setItem(API_KEY_STORAGE, 'vrcl_…')`. */
export const API_KEY_STORAGE = 'vrclink.apiKey';

function storedApiKey(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(API_KEY_STORAGE)?.trim() || undefined;
  } catch {
    // Storage can be switched off (private modes, sandboxed frames): no key then.
    return undefined;
  }
}

/**
 * The server API key the client sends, if one is configured (spec admin-area §6): the browser's stored one
 * first, else the build's `VITE_API_KEY`. Read per call, so setting or clearing it needs no reload.
 */
export function configuredApiKey(): string | undefined {
  return storedApiKey() ?? (import.meta.env.VITE_API_KEY?.trim() || undefined);
}

/**
 * Sends the configured key as `Authorization: Bearer <key>` on every call. The server then acts as the key
 * (its server, its permissions), not as the signed-in user, whose cookie it ignores for that call.
 */
export const apiKeyMiddleware: Middleware = {
  onRequest({ request }) {
    const key = configuredApiKey();
    if (!key) return undefined;
    request.headers.set('Authorization', `Bearer ${key}`);
    return request;
  },
};
