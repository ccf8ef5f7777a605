import type { FastifyReply, FastifyRequest } from 'fastify';

/** Answers an atlas PNG with its content hash as ETag, or 304 when the caller already holds it. */
export function sendAtlasPng(
  req: FastifyRequest,
  reply: FastifyReply,
  image: { bytes: Buffer; hash: string },
  cacheControl: string,
) {
  const etag = `"${image.hash}"`;
  reply.header('etag', etag).header('cache-control', cacheControl);
  const held = req.headers['if-none-match'];
  if (held?.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, ''))))
    return reply.code(304).send();
  return reply.type('image/png').send(image.bytes);
}
