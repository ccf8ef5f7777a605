import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { ZodApp } from '../../http/types.js';

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
  app.get(
    '/config',
    { schema: { operationId: 'getConfig', tags: ['meta'], response: { 200: publicConfig } } },
    async () => ({
      inviteUrl: ctx.discordOAuth.inviteUrl(),
      supportUrl: ctx.config.supportUrl,
      contactEmail: ctx.config.contactEmail,
      discordWebUrl: ctx.config.discord.webUrl,
      vrchatWebUrl: ctx.config.vrchat.webUrl,
      demoMode: ctx.config.demoMode,
    }),
  );
}
