import { EventEmitter } from 'node:events';
import type { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.js';
import { roleDeleted } from '../../wings/access/members/member-mirror.events.js';
import { readMember } from '../../wings/access/members/member-mirror.store.js';
import { onGuildMemberUpdate } from './guildMemberUpdate.js';

const guildId = '1400000000000000001';
const userId = '1400000000000000002';
const update = (roles: string[]) => ({
  t: 'GUILD_MEMBER_UPDATE',
  d: { guild_id: guildId, user: { id: userId, username: 'someone' }, roles, joined_at: null },
});

describe('GUILD_MEMBER_UPDATE keeps the order Discord sent', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it("queues a member's updates for the mirror as they arrive, so the last one is what stays", async () => {
    // A database read awaited before the mirror's write let a later update of the member be written first on
    // PostgreSQL's pool, and the older roles last (a role a sync had just given looked missing to the preview).
    const client = Object.assign(new EventEmitter(), { user: { id: 'bot' } }) as unknown as Client;
    const off = onGuildMemberUpdate(client, t.ctx);
    try {
      const roles = Array.from({ length: 12 }, (_, i) => `14000000000000001${String(i).padStart(2, '0')}`);
      for (let n = 1; n <= roles.length; n++) client.emit('raw', update(roles.slice(0, n)));
      // Queued behind every write of the guild taken so far: all twelve, had they taken their places on arrival.
      await roleDeleted(t.ctx, guildId, '1400000000000000999');
      const { member } = await readMember(t.ctx.db, guildId, userId);
      expect(member?.roleIds).toEqual(roles);
    } finally {
      off();
    }
  });
});
