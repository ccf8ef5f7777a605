import { seedGuildIds } from '@vrclink/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, laxSimulator, signIn, type TestApp } from '../../../../test/app.js';
import { guests } from '../../../db/schema/index.js';

const { hangout } = seedGuildIds;
/** A server the bot is not in. */
const elsewhere = '1999999999999999999';

describe('guest routes: 404 for what does not exist, 403 for what is not yours', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(laxSimulator.forManyDiscordCalls);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 for a server without the bot, like the server routes', async () => {
    const { session } = await signIn(t);
    const server = await t.inject({ method: 'GET', url: `/api/guilds/${elsewhere}`, session });
    expect(server.statusCode).toBe(404);
    for (const [method, url, payload] of [
      ['GET', `/api/users/guests/${elsewhere}`],
      ['GET', `/api/users/guests/${elsewhere}/search?memberQuery=a`],
      ['POST', `/api/users/guests/${elsewhere}/assign`, { discordId: '1300000000000000002' }],
      ['DELETE', `/api/users/guests/${elsewhere}/unassign/1c2b3d4e-0000-4000-8000-000000000000`],
    ] as const) {
      const res = await t.inject({ method, url, payload, session });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual(server.json());
    }
  });

  it("answers 403 for removing someone else's guest, 404 for an entry nobody has", async () => {
    const host = await signIn(t);
    const other = await signIn(t);
    const [row] = await t.ctx.db
      .insert(guests)
      .values({
        guildId: hangout.id,
        hostUserId: host.id,
        guestRoleId: '1300000000000000009',
        guestUsername: 'g',
      })
      .returning();
    const unassign = (session: string, id: string) =>
      t.inject({ method: 'DELETE', url: `/api/users/guests/${hangout.id}/unassign/${id}`, session });
    const refused = await unassign(other.session, row.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'That guest was added by another host.' });
    expect((await t.ctx.db.select().from(guests)).map((g) => g.id)).toContain(row.id);
    const unknown = await unassign(other.session, '1c2b3d4e-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
  });
});
