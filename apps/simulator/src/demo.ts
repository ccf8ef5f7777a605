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
