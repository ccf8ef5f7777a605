import { z } from 'zod';
import { errorBody } from '../../../http/errors.js';
import { originOf } from '../../../http/origin.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { missing } from '../../../kernel/errors.js';
import { vpmListing, worldSdkPackage } from './vpm.service.js';

const listing = z.object({
  name: z.string(),
  id: z.string(),
  url: z.string(),
  author: z.string(),
  packages: z.record(
    z.string(),
    z.object({ versions: z.record(z.string(), z.record(z.string(), z.unknown())) }),
  ),
});
z.globalRegistry.add(listing, { id: 'VpmListing' });

export async function vpmRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  app.get(
    '/vpm/index.json',
    {
      schema: {
        operationId: 'getVpmListing',
        tags: ['vpm'],
        description: 'VRChat Creator Companion repository listing with the world SDK package.',
        response: { 200: listing },
      },
    },
    async () => vpmListing(originOf(ctx.config)),
  );

  app.get(
    '/vpm/packages/:file',
    {
      schema: {
        operationId: 'getVpmPackage',
        tags: ['vpm'],
        params: z.object({ file: z.string().max(200) }),
        response: { 200: z.any().describe('The package as a ZIP file'), 404: errorBody },
      },
    },
    async (req, reply) => {
      const pkg = worldSdkPackage();
      if (req.params.file !== pkg.fileName) throw missing('Package not found.');
      return reply.type('application/zip').header('cache-control', 'public, max-age=3600').send(pkg.zip);
    },
  );
}
