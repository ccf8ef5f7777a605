import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config.js';

/** The address users reach the product at: PUBLIC_URL, else the request's own origin. */
export function originOf(config: Pick<AppConfig, 'publicUrl'>, req: FastifyRequest): string {
  return config.publicUrl || `${req.protocol}://${req.host}`;
}
