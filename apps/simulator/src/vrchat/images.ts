import type { FastifyInstance } from 'fastify';
import { solidPng } from '../png.js';

/**
 * Avatar, profile, icon and banner images. Real VRChat serves these from its file API and CDN; the
 * simulator serves a small solid-colour PNG per id so the product's pages have something to show.
 */
export const imagePaths = {
  avatarImage: (userId: string) => `/img/vrchat/avatar/${userId}/image.png`,
  avatarThumbnail: (userId: string) => `/img/vrchat/avatar/${userId}/thumbnail.png`,
  profilePic: (userId: string) => `/img/vrchat/profile/${userId}/image.png`,
  groupIcon: (groupId: string) => `/img/vrchat/group/${groupId}/icon.png`,
  groupBanner: (groupId: string) => `/img/vrchat/group/${groupId}/banner.png`,
};

export function registerImageRoutes(app: FastifyInstance): void {
  const sizes: Record<string, [number, number]> = {
    image: [128, 96],
    thumbnail: [64, 48],
    icon: [64, 64],
    banner: [192, 64],
  };
  app.get<{ Params: { kind: string; id: string; file: string } }>(
    '/img/vrchat/:kind/:id/:file',
    async (req, reply) => {
      const { kind, id, file } = req.params;
      const size = sizes[file.replace(/\.png$/, '')];
      if (!['avatar', 'profile', 'group'].includes(kind) || !size || !file.endsWith('.png'))
        return reply.code(404).send({ error: { message: 'Not found', status_code: 404 } });
      return reply
        .type('image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(solidPng(`${kind}:${id}:${file}`, size[0], size[1]));
    },
  );
}
