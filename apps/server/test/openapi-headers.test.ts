import { describe, expect, it } from 'vitest';
import { generateOpenApiDocument } from '../src/openapi-document.js';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>> };

describe('OpenAPI response headers', () => {
  it('declares Retry-After on every 429 and 503 answer (rate limits and platform outages say when to retry)', async () => {
    const doc = JSON.parse(await generateOpenApiDocument()) as Doc;
    const answers = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, op]) =>
        Object.entries(op.responses ?? {})
          .filter(([status]) => status === '429' || status === '503')
          .map(([status, response]) => ({ at: `${method.toUpperCase()} ${path} ${status}`, response })),
      ),
    );
    // The VRChat-backed link routes answer 503 when VRChat rate limits us past the request's deadline.
    expect(answers.map((a) => a.at)).toContain('POST /api/users/link 503');
    const missing = answers.filter((a) => !('Retry-After' in (a.response.headers ?? {}))).map((a) => a.at);
    expect(missing).toEqual([]);
  }, 120_000); // Builds the whole app to generate the document: minutes on a loaded 2-core machine.
});
