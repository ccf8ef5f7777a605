import { userActor } from '../../kernel/actor.js';
import { audit } from '../../kernel/audit.js';
import { issueLoginToken, LOGIN_TOKEN_TTL_MS } from '../../wings/identity/auth/login-token.service.js';
import { inServers, type SlashCommand } from './command.js';

/** `/login`: a one-time link that signs the member in on the website (the spec's token login). */
export const loginCommand: SlashCommand = {
  definition: {
    name: 'login',
    description: 'Get a one-time link that signs you in on the website',
    ...inServers,
  },
  deferred: false,
  async run(interaction, ctx) {
    const { user } = interaction;
    const token = await issueLoginToken(ctx.db, {
      id: user.id,
      username: user.username,
      globalName: user.globalName,
      avatar: user.avatar,
    });
    await audit(ctx.db, { action: 'user.login_link', actor: userActor(user.id), targetId: user.id });
    const url = `${ctx.config.publicUrl}/discord_auth?token=${encodeURIComponent(token)}`;
    const minutes = LOGIN_TOKEN_TTL_MS / 60_000;
    return `Here is your sign-in link. It works once, for ${minutes} minutes; do not share it: ${url}`;
  },
};
