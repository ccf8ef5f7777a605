import type { AppConfig } from '../kernel/config.js';

/**
 * The address users reach the product at: PUBLIC_URL (required in real mode), in demo mode the address the
 * server prints. Never the request's Host or X-Forwarded-Host: a forged header must not choose where the
 * OAuth redirect or the package listing points.
 */
export function originOf(config: Pick<AppConfig, 'publicUrl'>): string {
  return config.publicUrl;
}
