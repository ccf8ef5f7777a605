import type { RESTGetAPIUserResult, RESTPostOAuth2AccessTokenResult } from 'discord.js';
import { DiscordAPIError, REST, Routes } from 'discord.js';
import type { AppConfig } from '../../kernel/config.js';

export interface DiscordIdentity {
  id: string;
  username: string;
  globalName: string | null;
  avatar: string | null;
}

export interface DiscordTokens {
  accessToken: string;
  refreshToken: string;
  scope: string;
  expiresAt: Date;
}

/** Raised when Discord refuses a code or token (expired, reused, revoked). */
export class DiscordGrantError extends Error {}

/** Discord OAuth2 through @discordjs/rest, pointed at Discord or the simulator by config. */
export class DiscordOAuth {
  private readonly rest: REST;

  constructor(private readonly cfg: AppConfig['discord']) {
    this.rest = new REST({ api: cfg.apiUrl, cdn: cfg.cdnUrl, retries: 2, timeout: 15_000 });
  }

  /** `askConsent`: Discord shows its consent page (where another account can be chosen) even for a returning user. */
  authorizeUrl(opts: { state: string; redirectUri: string; scopes: string[]; askConsent?: boolean }): string {
    const url = new URL('/oauth2/authorize', this.cfg.webUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.cfg.clientId);
    url.searchParams.set('scope', opts.scopes.join(' '));
    url.searchParams.set('state', opts.state);
    url.searchParams.set('redirect_uri', opts.redirectUri);
    url.searchParams.set('prompt', opts.askConsent ? 'consent' : 'none');
    return url.toString();
  }

  /** The 'Invite to Server' link: bot + slash commands, with Manage Roles so role sync works. */
  inviteUrl(): string {
    const url = new URL('/oauth2/authorize', this.cfg.webUrl);
    url.searchParams.set('client_id', this.cfg.clientId);
    url.searchParams.set('scope', 'bot applications.commands');
    url.searchParams.set('permissions', String(1n << 28n));
    return url.toString();
  }

  async exchangeCode(code: string, redirectUri: string): Promise<DiscordTokens> {
    return this.tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  async refresh(refreshToken: string): Promise<DiscordTokens> {
    return this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  async fetchIdentity(accessToken: string): Promise<DiscordIdentity> {
    const me = (await this.rest.get(Routes.user('@me'), {
      auth: false,
      headers: { Authorization: `Bearer ${accessToken}` },
    })) as RESTGetAPIUserResult;
    return {
      id: me.id,
      username: me.username,
      globalName: me.global_name ?? null,
      avatar: me.avatar ?? null,
    };
  }

  avatarUrl(userId: string, avatar: string | null): string | null {
    return avatar ? `${this.cfg.cdnUrl}/avatars/${userId}/${avatar}.png` : null;
  }

  private async tokenRequest(fields: Record<string, string>): Promise<DiscordTokens> {
    const body = new URLSearchParams({
      ...fields,
      client_id: this.cfg.clientId,
      client_secret: this.cfg.clientSecret,
    });
    try {
      const res = (await this.rest.post(Routes.oauth2TokenExchange(), {
        body,
        passThroughBody: true,
        auth: false,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      })) as RESTPostOAuth2AccessTokenResult;
      return {
        accessToken: res.access_token,
        refreshToken: res.refresh_token,
        scope: res.scope,
        expiresAt: new Date(Date.now() + res.expires_in * 1000),
      };
    } catch (err) {
      if (err instanceof DiscordAPIError && err.status >= 400 && err.status < 500) {
        throw new DiscordGrantError(err.message);
      }
      throw err;
    }
  }
}
