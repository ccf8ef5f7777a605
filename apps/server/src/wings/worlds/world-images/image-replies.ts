import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ImageAnswer } from './world-images.service.js';

/** True when If-None-Match names this ETag (or `*`); weak and strong forms compare alike. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/**
 * Sends an image with its ETag; 304 without reading the bytes when the caller has it. Private (the caller's
 * permission decides). Revalidated each time, since a turn changes an image under the same address, unless
 * the address carries `?v=` naming these very bytes (the web adds the hash): then it is kept for a year.
 */
export async function sendImage(req: FastifyRequest, reply: FastifyReply, answer: ImageAnswer, v?: string) {
  const immutable = v === answer.version;
  reply
    .header('etag', answer.etag)
    .header('cache-control', immutable ? 'private, max-age=31536000, immutable' : 'private, no-cache');
  if (etagMatches(req.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  const bytes = await answer.bytes();
  return reply.type(answer.contentType).send(bytes);
}
