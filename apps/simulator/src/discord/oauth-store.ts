import { randomBytes } from 'node:crypto';

export interface AuthCode {
  code: string;
  userId: string;
  scopes: string[];
  redirectUri: string | null;
  expiresAt: number;
  guildId?: string;
}

/** One authorization: an access token and the refresh token that rotates it. */
export interface Grant {
  userId: string;
  scopes: string[];
  accessToken: string;
  refreshToken: string | null;
  accessExpiresAt: number;
}

export const ACCESS_TOKEN_TTL_S = 604_800;

/** Discord's tokens are opaque ~30-char alphanumerics. */
const token = () => randomBytes(24).toString('base64url').replace(/[-_]/g, 'x').slice(0, 30);

export class OAuthStore {
  private codes = new Map<string, AuthCode>();
  private byAccess = new Map<string, Grant>();
  private byRefresh = new Map<string, Grant>();
  /** Scopes each user has consented to, so `prompt=none` can skip the consent screen. */
  private consented = new Map<string, Set<string>>();

  remember(userId: string, scopes: string[]): void {
    const set = this.consented.get(userId) ?? new Set<string>();
    for (const s of scopes) set.add(s);
    this.consented.set(userId, set);
  }

  hasConsented(userId: string, scopes: string[]): boolean {
    const set = this.consented.get(userId);
    return Boolean(set) && scopes.every((s) => set!.has(s));
  }

  issueCode(input: Omit<AuthCode, 'code' | 'expiresAt'>, ttlMs: number): AuthCode {
    const code: AuthCode = { ...input, code: token(), expiresAt: Date.now() + ttlMs };
    this.codes.set(code.code, code);
    return code;
  }

  /** Codes are one-time: the lookup removes it. Expired codes are reported as absent. */
  takeCode(code: string): AuthCode | undefined {
    const found = this.codes.get(code);
    this.codes.delete(code);
    return found && found.expiresAt > Date.now() ? found : undefined;
  }

  peekCode(code: string): AuthCode | undefined {
    return this.codes.get(code);
  }

  createGrant(userId: string, scopes: string[], withRefresh = true): Grant {
    const grant: Grant = {
      userId,
      scopes,
      accessToken: token(),
      refreshToken: withRefresh ? token() : null,
      accessExpiresAt: Date.now() + ACCESS_TOKEN_TTL_S * 1000,
    };
    this.byAccess.set(grant.accessToken, grant);
    if (grant.refreshToken) this.byRefresh.set(grant.refreshToken, grant);
    return grant;
  }

  /** Refreshing rotates both tokens; the old refresh token stops working. */
  refresh(refreshToken: string): Grant | undefined {
    const grant = this.byRefresh.get(refreshToken);
    if (!grant) return undefined;
    this.revokeGrant(grant);
    return this.createGrant(grant.userId, grant.scopes);
  }

  access(accessToken: string): Grant | undefined {
    const grant = this.byAccess.get(accessToken);
    return grant && grant.accessExpiresAt > Date.now() ? grant : undefined;
  }

  /** Revoking either token revokes the whole grant. Unknown tokens are ignored (as Discord does). */
  revoke(tokenValue: string): boolean {
    const grant = this.byAccess.get(tokenValue) ?? this.byRefresh.get(tokenValue);
    if (!grant) return false;
    this.revokeGrant(grant);
    // Revoking deauthorizes the app for the user: the next authorize shows the consent screen again.
    this.consented.delete(grant.userId);
    return true;
  }

  /** For tests of refresh logic: every (or one user's) access token is expired now. */
  expireAccessTokens(userId?: string): number {
    let n = 0;
    for (const grant of this.byAccess.values()) {
      if (!userId || grant.userId === userId) {
        grant.accessExpiresAt = 0;
        n += 1;
      }
    }
    return n;
  }

  grants(): Grant[] {
    return [...this.byAccess.values()];
  }

  private revokeGrant(grant: Grant): void {
    this.byAccess.delete(grant.accessToken);
    if (grant.refreshToken) this.byRefresh.delete(grant.refreshToken);
  }
}
