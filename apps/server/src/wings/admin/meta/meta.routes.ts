import { z } from 'zod';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';

const publicConfig = z.object({
  inviteUrl: z.string(),
  supportUrl: z.string(),
  contactEmail: z.string(),
  discordWebUrl: z.string(),
  vrchatWebUrl: z.string(),
  demoMode: z.boolean(),
});
z.globalRegistry.add(publicConfig, { id: 'PublicConfig' });

/** What the web app needs to know about this deployment; nothing secret. */
export async function metaRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  // Fixed for the process's life: built on the first request (every page load asks), not on each.
  let answer: z.infer<typeof publicConfig> | undefined;
  app.get(
    '/config',
    {
      schema: { operationId: 'getConfig', tags: ['meta'], response: { 200: publicConfig } },
      // Anyone may read it: no session lookup, rate limit or VRChat deadline (auth.ts, app.ts); every page
      // load asks, and the answer never changes: replayed from memory (http/constant-answers.ts).
      config: { anonymous: true, platformCalls: false, constantAnswer: true },
    },
    async () => {
      answer ??= {
        inviteUrl: ctx.discordOAuth.inviteUrl(),
        supportUrl: ctx.config.supportUrl,
        contactEmail: ctx.config.contactEmail,
        discordWebUrl: ctx.config.discord.webUrl,
        vrchatWebUrl: ctx.config.vrchat.webUrl,
        demoMode: ctx.config.demoMode,
      };
      return answer;
    },
  );
}
