import type { Middleware } from 'openapi-fetch';
import { thrownError } from './errors';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';
/** The spec's "patch-JSON" content type for JSON bodies; the server reads it as JSON. */
export const JSON_CONTENT_TYPE = 'application/json-patch+json';

export function readCookie(name: string, cookies = document.cookie): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/**
 * Echoes the XSRF cookie in a header (the server answers 403 to state-changing calls without it).
 * Sent on every call, GETs included: the server treats a few GETs (logout, refresh) as state-changing.
 */
export const xsrfMiddleware: Middleware = {
  onRequest({ request }) {
    const token = readCookie(XSRF_COOKIE);
    if (token) request.headers.set(XSRF_HEADER, token);
    return request;
  },
};

export const patchJsonMiddleware: Middleware = {
  onRequest({ request }) {
    if (request.headers.get('Content-Type') !== 'application/json') return undefined;
    request.headers.set('Content-Type', JSON_CONTENT_TYPE);
    return request;
  },
};

/** Turns what fetch throws into the spec's failure kinds (network, aborted, time-out). */
export const failureMiddleware: Middleware = {
  onError({ error }) {
    return thrownError(error);
  },
};

let onUnauthorized: (() => void) | undefined;

/** Lets the login context hear about 401s from any call, so the UI falls back to logged out. */
export function setUnauthorizedHandler(handler: (() => void) | undefined): void {
  onUnauthorized = handler;
}

export const unauthorizedMiddleware: Middleware = {
  onResponse({ response, schemaPath }) {
    if (response.status === 401 && !schemaPath.endsWith('/user')) onUnauthorized?.();
    return undefined;
  },
};
