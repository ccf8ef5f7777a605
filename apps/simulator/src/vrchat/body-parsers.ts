import type { FastifyInstance } from 'fastify';
import { vrcError } from './errors.js';

/**
 * JSON that tolerates an empty body (clients send POSTs like joinGroup with none, sometimes still with
 * a JSON content type) and HTML form posts for the pages. Encapsulated per plugin.
 */
export function useVrchatBodyParsers(instance: FastifyInstance): void {
  instance.removeContentTypeParser('application/json');
  instance.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (!text.trim()) return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(vrcError(400, 'Invalid JSON body'), undefined);
    }
  });
  instance.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}
