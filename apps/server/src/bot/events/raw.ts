import { type Client, Events } from 'discord.js';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Subscribes to one gateway dispatch as Discord sent it. The member mirror reads raw dispatches: they
 * arrive for members discord.js never cached, and also when a resume replays what was missed (where
 * discord.js emits no member events).
 * The handler starts at once (so events of one server are queued in the order they arrived); whatever it
 * throws or rejects with is logged here: an unhandled rejection would end the process.
 */
export function onDispatch<D>(
  client: Client,
  log: FastifyBaseLogger,
  type: string,
  handler: (data: D) => void | Promise<void>,
): () => void {
  const run = async (data: D) => handler(data);
  const listener = (packet: { t?: string | null; d?: unknown }) => {
    if (packet.t !== type) return;
    run(packet.d as D).catch((err) => log.error({ err, type }, 'Discord: a gateway event was not handled'));
  };
  client.on(Events.Raw, listener);
  return () => client.off(Events.Raw, listener);
}
