import { type Client, Events, type REST, RESTEvents } from 'discord.js';
import { metrics, statusClass } from '../../observability/metrics.js';

/** Counts the bot's and users' REST calls, 429s and discord.js's pauses, and the gateway's dispatches. */
export function countDiscordCalls(client: Client, userRest: REST): void {
  // `account`: the bot's token, or the users' own tokens (sign-in, Linked Roles), each limited apart by Discord.
  for (const [account, rest] of [
    ['bot', client.rest],
    ['users', userRest],
  ] as const) {
    rest.on(RESTEvents.Response, (_request, response) => {
      metrics.platformCalls.inc({ platform: 'discord', status: statusClass(response.status) });
      if (response.status === 429)
        metrics.platformRateLimits.inc({ platform: 'discord', account, kind: '429' });
    });
    rest.on(RESTEvents.RateLimited, () =>
      metrics.platformRateLimits.inc({ platform: 'discord', account, kind: 'pause' }),
    );
  }
  client.on(Events.Raw, (packet: { op?: number; t?: string | null }) => {
    if (packet.op === 0 && packet.t) metrics.gatewayEvents.inc({ event: packet.t });
  });
}
