import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../http/errors.js';
import { tooManyBytes } from './image-content.js';
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

export const NOT_MULTIPART = 'Send the image as multipart/form-data in the field "file".';
export const UNREADABLE_UPLOAD = 'The upload could not be read. Send one image in the field "file".';

/** The upload's `file` part, whole, or a 4xx sentence (413 past the size limit). */
export async function readFilePart(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ name: string | undefined; bytes: Buffer }> {
  if (!req.isMultipart()) throw badRequest(NOT_MULTIPART);
  try {
    const part = await req.file({
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
    });
    if (part?.fieldname !== 'file') throw badRequest(NOT_MULTIPART);
    return { name: part.filename, bytes: await part.toBuffer() };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(413, tooManyBytes(maxBytes));
    throw badRequest(UNREADABLE_UPLOAD);
  }
}
