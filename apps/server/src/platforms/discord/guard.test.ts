import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { markConnectFailed } from '../../db/connection-lost.js';
import type { DiscordPort } from '../ports.js';
import { DiscordError } from './errors.js';
import { guardDiscord } from './guard.js';

/** A port whose member read fails with `err` (the member mirror reads the database behind this port). */
const failingWith = (err: Error) =>
  guardDiscord({
    getMember: async () => {
      throw err;
    },
  } as unknown as DiscordPort);

describe('guardDiscord', () => {
  it("lets the database's failures through: a database outage is never reported as Discord's", async () => {
    const refused = markConnectFailed(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    await expect(failingWith(refused).getMember('1', '2')).rejects.toBe(refused);
    const query = new DrizzleQueryError('select 1', [], new Error('relation "x" does not exist'));
    await expect(failingWith(query).getMember('1', '2')).rejects.toBe(query);
  });

  it("reports the network's failures as Discord's (503)", async () => {
    const network = Object.assign(new Error('fetch failed'), { code: 'ECONNREFUSED' });
    const err = await failingWith(network)
      .getMember('1', '2')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscordError);
    expect((err as DiscordError).status).toBe(503);
  });
});
