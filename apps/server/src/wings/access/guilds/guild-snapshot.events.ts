import type { Db } from '../../../db/client.js';
import {
  dropGuildSnapshot,
  type GuildSnapshot,
  shardLoaded,
  writeGuildSnapshot,
} from './guild-snapshot.store.js';

/**
 * The gateway holder's writer of the server snapshot. Writes of one server run one after another and each
 * writes the server's state as the gateway cache has it when the write runs (`read()`), so a burst of events
 * ends with the latest state; what this process last wrote is remembered, so an event that changed nothing
 * the snapshot keeps (a member's nickname, a voice channel) costs no database call at all.
 */
export function guildSnapshotWriter(db: Db) {
  const lastWritten = new Map<string, string>();
  const queues = new Map<string, Promise<unknown>>();

  function inOrder<T>(guildId: string, write: () => Promise<T>): Promise<T> {
    const next = (queues.get(guildId) ?? Promise.resolve()).catch(() => {}).then(write);
    queues.set(guildId, next);
    const settled = () => {
      if (queues.get(guildId) === next) queues.delete(guildId);
    };
    next.then(settled, settled);
    return next;
  }

  async function writeNow(snapshot: GuildSnapshot): Promise<void> {
    const json = JSON.stringify(snapshot);
    if (lastWritten.get(snapshot.id) === json) return;
    await writeGuildSnapshot(db, snapshot);
    lastWritten.set(snapshot.id, json);
  }

  return {
    /** The server changed (or may have): `read` answers its state now, undefined if not available. */
    changed(guildId: string, read: () => GuildSnapshot | undefined): Promise<void> {
      return inOrder(guildId, async () => {
        const snapshot = read();
        if (snapshot) await writeNow(snapshot);
      });
    },

    /** The bot left the server (GUILD_DELETE without `unavailable`). */
    left(guildId: string): Promise<void> {
      return inOrder(guildId, async () => {
        await dropGuildSnapshot(db, guildId);
        lastWritten.delete(guildId);
      });
    },

    /**
     * A shard is ready (a new session or a resume): every server of it is compared with its row and only the
     * changed ones are written (another process may have held the gateway meanwhile, so what this one wrote
     * before is not trusted), the rows of servers it no longer has go, and the shard is marked loaded.
     */
    async shardReady(
      shard: { id: number; count: number },
      guilds: { id: string; read: () => GuildSnapshot | undefined }[],
    ): Promise<void> {
      for (const g of guilds) lastWritten.delete(g.id);
      await Promise.all(guilds.map((g) => this.changed(g.id, g.read)));
      await shardLoaded(
        db,
        shard,
        guilds.map((g) => g.id),
      );
    },
  };
}

export type GuildSnapshotWriter = ReturnType<typeof guildSnapshotWriter>;
