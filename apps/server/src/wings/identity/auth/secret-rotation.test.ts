import { createHash } from 'node:crypto';
import { seedUserIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, type TestApp } from '../../../../test/app.js';
import { signInWithDiscord as signInThroughDiscord } from '../../../../test/factories.js';
import { parseEnv } from '../../../env.js';
import { decrypt } from '../../../kernel/crypto.js';
import { userAccessToken } from './discord-tokens.service.js';

const keyOf = (secret: string) => createHash('sha256').update(secret).digest();
const OLD = 'old-secret-key-0123456789abcdefghij';
const NEW = 'new-secret-key-0123456789abcdefghij';

/** SECRET_KEY rotation: tokens sealed under the previous key are read with SECRET_KEY_PREVIOUS and sealed again. */
describe('rotating SECRET_KEY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...laxSimulator.forManyDiscordCalls, env: { SECRET_KEY: OLD } });
  });
  afterAll(() => t?.close());

  const signInWithDiscord = (userId: string) => signInThroughDiscord(t, userId);
  const storedRefreshToken = async (userId: string) =>
    (
      await t.ctx.database.executeSql('select refresh_token_enc from discord_tokens where user_id = $1', [
        userId,
      ])
    ).rows[0]?.refresh_token_enc as string | undefined;

  it('reads SECRET_KEY_PREVIOUS (at least 32 characters)', () => {
    expect(() => parseEnv({ SECRET_KEY_PREVIOUS: 'short' })).toThrow(
      'SECRET_KEY_PREVIOUS: must be at least 32',
    );
  });

  it('reads a token sealed under the previous key and seals it again under the new one', async () => {
    const userId = seedUserIds.admin;
    await signInWithDiscord(userId);
    expect(decrypt(keyOf(OLD), (await storedRefreshToken(userId)) as string)).toBeTruthy();
    // The operator restarts with SECRET_KEY=NEW and SECRET_KEY_PREVIOUS=OLD.
    t.ctx.config.secretKey = keyOf(NEW);
    t.ctx.config.previousSecretKey = keyOf(OLD);
    const token = await userAccessToken(t.ctx, userId);
    expect(token?.accessToken).toBeTruthy();
    const resealed = (await storedRefreshToken(userId)) as string;
    expect(decrypt(keyOf(NEW), resealed)).toBeTruthy();
    expect(() => decrypt(keyOf(OLD), resealed)).toThrow();
  });

  it('without the previous key, forgets a token it cannot read (the user signs in again) instead of failing', async () => {
    const userId = seedUserIds.admin;
    t.ctx.config.secretKey = keyOf(OLD);
    t.ctx.config.previousSecretKey = undefined;
    await signInWithDiscord(userId);
    t.ctx.config.secretKey = keyOf(NEW);
    expect(await userAccessToken(t.ctx, userId)).toBeNull();
    expect(await storedRefreshToken(userId)).toBeUndefined();
  });
});
