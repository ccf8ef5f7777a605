import createClient from 'openapi-fetch';
import { apiKeyMiddleware } from './apiKey';
import { responseError } from './errors';
import { failureMiddleware, patchJsonMiddleware, unauthorizedMiddleware, xsrfMiddleware } from './middleware';
import { withRequiredPathParams } from './requiredParams';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

/** Same-origin; the OpenAPI paths already start with /api. */
const baseUrl = globalThis.location?.origin ?? '';

// fetch is looked up per call so tests (and devtools overrides) can replace it.
const rawClient = createClient<paths>({
  baseUrl,
  credentials: 'include',
  fetch: (request) => globalThis.fetch(request),
});
rawClient.use(
  apiKeyMiddleware,
  xsrfMiddleware,
  patchJsonMiddleware,
  unauthorizedMiddleware,
  failureMiddleware,
);

/**
 * The one API client: typed from the OpenAPI document, with the configured API key (if any), XSRF, patch-JSON
 * and path-parameter checks.
 */
export const api = withRequiredPathParams(rawClient);

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Resolves to the data of a successful call, or throws an ApiError carrying the server's message. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw responseError(response, error);
  return data as T;
}
