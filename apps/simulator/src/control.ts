import type { FastifyInstance } from 'fastify';
import type { SimContext } from './context.js';
import { faultSchema } from './faults.js';

/** Platform-independent control routes; each platform adds its own under /control/discord and /control/vrchat. */
export async function registerControl(app: FastifyInstance, ctx: SimContext): Promise<void> {
  app.get('/control/faults', async () => ctx.faults.list());
  app.get('/control/faults/in-flight', async () => ({ delayed: ctx.faults.delayedInFlight }));
  app.post('/control/faults', async (req, reply) => {
    const parsed = faultSchema.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ message: parsed.error.message });
    ctx.faults.add(parsed.data);
    return reply.code(201).send(parsed.data);
  });
  app.delete('/control/faults', async (req, reply) => {
    const platform = (req.query as { platform?: 'discord' | 'vrchat' }).platform;
    ctx.faults.clear(platform);
    return reply.code(204).send();
  });
}
