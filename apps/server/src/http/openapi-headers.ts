/**
 * Response headers the route schemas cannot carry (zod describes bodies only): every 429 and 503 may send
 * Retry-After (rate limits, VRChat rate limiting us, a platform outage), so clients can read when to retry from
 * the document instead of guessing.
 */
type OpenApiDocument = {
  paths?: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
};
type ResponseObject = { headers?: Record<string, unknown> };

const retryAfter = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 0 },
};

export function withRetryAfterHeaders<T>(document: T): T {
  const doc = document as OpenApiDocument;
  for (const operations of Object.values(doc.paths ?? {}))
    for (const operation of Object.values(operations))
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if ((status === '429' || status === '503') && response && typeof response === 'object')
          response.headers = { ...response.headers, 'Retry-After': retryAfter };
  return document;
}
