import {
  type APIApplicationRoleConnectionMetadata,
  DiscordAPIError,
  REST,
  type RESTGetAPICurrentUserApplicationRoleConnectionResult,
  type RESTPutAPICurrentUserApplicationRoleConnectionJSONBody,
  Routes,
} from 'discord.js';
import type { AppConfig } from '../../kernel/config.js';
import { DiscordGrantError } from './oauth.js';

/**
 * Discord's Linked Roles endpoints: the application's metadata records (with the bot token) and each user's
 * role connection (with that user's OAuth token, scope `role_connections.write`).
 */
export class DiscordRoleConnections {
  /** Users' Bearer calls never share the bot's REST client (its token and rate-limit buckets). */
  private readonly userRest: REST;

  constructor(
    private readonly cfg: AppConfig['discord'],
    private readonly botRest: REST,
  ) {
    this.userRest = new REST({ api: cfg.apiUrl, cdn: cfg.cdnUrl, retries: 2, timeout: 15_000 });
  }

  async getMetadata(): Promise<APIApplicationRoleConnectionMetadata[]> {
    return (await this.botRest.get(
      Routes.applicationRoleConnectionMetadata(this.cfg.clientId),
    )) as APIApplicationRoleConnectionMetadata[];
  }

  async putMetadata(records: APIApplicationRoleConnectionMetadata[]): Promise<void> {
    await this.botRest.put(Routes.applicationRoleConnectionMetadata(this.cfg.clientId), { body: records });
  }

  /** Replaces the user's role connection; an expired or revoked token is a DiscordGrantError. */
  async putConnection(
    accessToken: string,
    body: RESTPutAPICurrentUserApplicationRoleConnectionJSONBody,
  ): Promise<RESTGetAPICurrentUserApplicationRoleConnectionResult> {
    try {
      return (await this.userRest.put(Routes.userApplicationRoleConnection(this.cfg.clientId), {
        body,
        auth: false,
        headers: { Authorization: `Bearer ${accessToken}` },
      })) as RESTGetAPICurrentUserApplicationRoleConnectionResult;
    } catch (err) {
      if (err instanceof DiscordAPIError && err.status === 401) throw new DiscordGrantError(err.message);
      throw err;
    }
  }
}
