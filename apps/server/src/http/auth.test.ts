import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionXsrfToken } from './auth.js';

const hmac = (key: Buffer, token: string) =>
  createHmac('sha256', key).update(`xsrf:${token}`).digest('base64url');

describe("a session's XSRF token", () => {
  it('is the HMAC of its session token under the secret, remembered or not, per secret', () => {
    const [one, two] = [randomBytes(32), randomBytes(32)];
    const tokens = Array.from({ length: 10_050 }, (_, i) => `session-${i}`);
    // More tokens than it remembers: the oldest are computed again, and still right.
    for (const token of tokens) expect(sessionXsrfToken(one, token)).toBe(hmac(one, token));
    for (const token of [tokens[0]!, tokens[10_049]!, tokens[0]!]) {
      expect(sessionXsrfToken(one, token)).toBe(hmac(one, token));
      // Another secret (a rotated key) gives another token for the same session, never the first's.
      expect(sessionXsrfToken(two, token)).toBe(hmac(two, token));
      expect(sessionXsrfToken(two, token)).not.toBe(sessionXsrfToken(one, token));
    }
  });
});
