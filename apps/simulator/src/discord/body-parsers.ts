import type { FastifyInstance } from 'fastify';
import { invalidJson } from './errors.js';

/**
 * Discord's API accepts JSON, form-encoded (OAuth) and multipart (messages with files, whose JSON
 * is the `payload_json` part). An empty JSON body is fine (discord.js sends none on PUT role).
 */
export function useDiscordBodyParsers(api: FastifyInstance): void {
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(invalidJson(), undefined);
    }
  });
  api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  api.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, (req, body, done) => {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(req.headers['content-type'] ?? '');
    const marker = boundary?.[1] ?? boundary?.[2];
    if (!marker) return done(null, {});
    const text = (body as Buffer).toString('latin1');
    for (const part of text.split(`--${marker}`)) {
      if (!/name="payload_json"/.test(part)) continue;
      const json = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
      try {
        return done(null, JSON.parse(Buffer.from(json, 'latin1').toString('utf8')));
      } catch {
        return done(invalidJson(), undefined);
      }
    }
    done(null, {});
  });
  api.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}
