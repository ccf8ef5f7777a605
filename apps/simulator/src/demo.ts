import { createHash } from 'node:crypto';

/**
 * Fixed credentials and ids of the seeded demo world. The product's demo mode reads these, so the
 * simulator and the product agree without configuration. None of them is a secret anywhere real.
 */
export const discordApp = {
  clientId: '1100000000000000001',
  clientSecret: 'demo-client-secret',
  botToken: 'demo-bot-token',
  botUserId: '1100000000000000001',
  botUsername: 'VRCLink',
} as const;

/** The seeded Discord user who is a platform admin in demo mode. */
export const adminDiscordUserId = '1200000000000000001';

/** The VRChat account the product's bot logs in with (TOTP enabled). */
export const vrchatBot = {
  username: 'vrclink-bot',
  password: 'demo-password',
  /** Base32 TOTP secret. */
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
} as const;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The credentials of further VRChat bot accounts, numbered from 2 (`vrclink-bot-2`, …), each with its own
 * TOTP secret derived from its number: the same on every run. The simulator seeds the first few
 * (`vrchatBots`); `POST /control/vrchat/bot-accounts` makes more.
 */
export function vrchatBotAccount(n: number): { username: string; password: string; totpSecret: string } {
  const digest = createHash('sha256').update(`vrclink-bot-${n}`).digest();
  const totpSecret = [...digest.subarray(0, 32)].map((byte) => BASE32[byte % 32]).join('');
  return { username: `vrclink-bot-${n}`, password: `demo-password-${n}`, totpSecret };
}

/** The VRChat bot accounts seeded in the simulator (each in no group but the first): at least two. */
export const vrchatBots = [vrchatBot, vrchatBotAccount(2), vrchatBotAccount(3)] as const;
