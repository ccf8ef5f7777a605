import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'vrclink_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/** Secure only when the browser reached us over https, so plain-http demo mode keeps working. */
export function setCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  opts: { httpOnly?: boolean; maxAgeSeconds?: number } = {},
): void {
  reply.setCookie(name, value, {
    path: '/',
    httpOnly: opts.httpOnly ?? true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    maxAge: opts.maxAgeSeconds,
  });
}
