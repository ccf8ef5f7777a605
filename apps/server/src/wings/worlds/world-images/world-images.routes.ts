import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { requireActor } from '../../../http/auth.js';
import { routeSchemas } from '../../../http/route-schema.js';
import type { ZodApp } from '../../../http/types.js';
import type { AppContext } from '../../../kernel/context.js';
import { sendImage } from './image-replies.js';
import {
  createSlot,
  deleteSlot,
  listSlots,
  reorderSlots,
  slotImage,
  updateSlot,
} from './image-slots.service.js';
import { uploadTempDir, withUploadedFile } from './upload-file.js';
import {
  guildParams,
  imageBytesResponses,
  imageParams,
  imageQuery,
  imageSlot,
  imageSlotsReorder,
  imageSlotsResponse,
  imageSlotUpdate,
  rotation,
  slotParams,
  uploadForm,
  uploadRefusals,
  worldImage,
  worldImagesResponse,
  worldParams,
} from './world-images.schemas.js';
import {
  deleteImage,
  imageFile,
  imagePreview,
  listImages,
  prepareUpload,
  rotateImage,
  uploadImage,
} from './world-images.service.js';

const route = routeSchemas({ tag: 'world-images' });

/** World Images (spec admin-area §7): a server's images and each world's image slots. */
export async function worldImagesRoutes(app: ZodApp, ctx: AppContext): Promise<void> {
  // Multipart only here: the other routes keep refusing anything but JSON.
  await app.register(async (scoped) => {
    await scoped.register(fastifyMultipart, {
      limits: { fileSize: ctx.config.worldImages.maxBytes, files: 1, fields: 10, parts: 20 },
    });
    registerImageRoutes(scoped.withTypeProvider(), ctx);
    registerSlotRoutes(scoped.withTypeProvider(), ctx);
  });
}

function registerImageRoutes(app: ZodApp, ctx: AppContext): void {
  app.post(
    '/world_images/:guildId/upload',
    route({
      operationId: 'uploadWorldImage',
      description:
        'Needs ManageImages and a contact e-mail on file. multipart/form-data, field `file`: a PNG, JPEG, WebP or GIF ' +
        '(first frame, stored as PNG), recognised by content. 201 the new image; 200 the image already holding the ' +
        'same bytes. 413 past the size or pixel limit, 415 not an image, 422 damaged, 409 no contact e-mail or ' +
        'the server holds its maximum of images.',
      params: guildParams,
      // Documents the form for the OpenAPI client; the multipart parser reads it, so `body` stays undefined.
      consumes: ['multipart/form-data'],
      body: uploadForm,
      response: { 200: worldImage, 201: worldImage, ...uploadRefusals },
    }),
    async (req, reply) => {
      const actor = requireActor(req);
      await prepareUpload(ctx, actor, req.params.guildId);
      const { maxBytes } = ctx.config.worldImages;
      const { image, created } = await withUploadedFile(
        req,
        reply,
        maxBytes,
        uploadTempDir(ctx.config.dataDir),
        (file) => uploadImage(ctx, actor, req.params.guildId, file),
      );
      return reply.code(created ? 201 : 200).send(image);
    },
  );

  app.get(
    '/world_images/:guildId/images',
    route({
      operationId: 'listWorldImages',
      description: "Needs ViewImages. The server's images, newest first.",
      params: guildParams,
      response: { 200: worldImagesResponse },
    }),
    async (req) => listImages(ctx, requireActor(req), req.params.guildId),
  );

  app.get(
    '/world_images/:guildId/image/:imageId',
    route({
      operationId: 'getWorldImage',
      description:
        'Needs ViewImages. The stored bytes; ETag is the content hash (If-None-Match answers 304).',
      params: imageParams,
      querystring: imageQuery,
      response: imageBytesResponses,
    }),
    async (req, reply) =>
      sendImage(
        req,
        reply,
        await imageFile(ctx, requireActor(req), req.params.guildId, req.params.imageId),
        req.query.v,
      ),
  );

  app.post(
    '/world_images/:guildId/image/:imageId',
    route({
      operationId: 'rotateWorldImage',
      description:
        'Needs ManageImages. Turns the image a quarter (Turn Right: Clockwise); width and height swap.',
      params: imageParams,
      body: rotation,
      response: { 200: worldImage },
    }),
    async (req) =>
      rotateImage(ctx, requireActor(req), req.params.guildId, req.params.imageId, req.body.rotation),
  );

  app.delete(
    '/world_images/:guildId/image/:imageId',
    route({
      operationId: 'deleteWorldImage',
      description: 'Needs ManageImages. Slots showing the image are cleared.',
      params: imageParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteImage(ctx, requireActor(req), req.params.guildId, req.params.imageId);
      return reply.code(204).send();
    },
  );

  app.get(
    '/world_images/:guildId/image/:imageId/preview',
    route({
      operationId: 'getWorldImagePreview',
      description: 'Needs ViewImages. The image as a PNG, longest side at most 256; made once and kept.',
      params: imageParams,
      querystring: imageQuery,
      response: imageBytesResponses,
    }),
    async (req, reply) =>
      sendImage(
        req,
        reply,
        await imagePreview(ctx, requireActor(req), req.params.guildId, req.params.imageId),
        req.query.v,
      ),
  );
}

function registerSlotRoutes(app: ZodApp, ctx: AppContext): void {
  app.get(
    '/world_images/:guildId/:worldId/slots',
    route({
      operationId: 'listImageSlots',
      description:
        "Needs ViewImages. The world's image slots in order; width and height are the atlas size (null: no image).",
      params: worldParams,
      response: { 200: imageSlotsResponse },
    }),
    async (req) => listSlots(ctx, requireActor(req), req.params.guildId, req.params.worldId),
  );

  app.put(
    '/world_images/:guildId/:worldId/slots',
    route({
      operationId: 'createImageSlot',
      description:
        'Needs ManageImages. Adds an empty slot (next Slot ID, Max Dimension 512, last); answers all slots.',
      params: worldParams,
      response: { 200: imageSlotsResponse },
    }),
    async (req) => createSlot(ctx, requireActor(req), req.params.guildId, req.params.worldId),
  );

  app.post(
    '/world_images/:guildId/:worldId/slots/batch',
    route({
      operationId: 'reorderImageSlots',
      description: "Needs ManageImages. Sets the listed slots' order at once; answers all slots.",
      params: worldParams,
      body: imageSlotsReorder,
      response: { 200: imageSlotsResponse },
    }),
    async (req) =>
      reorderSlots(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.body.imageSlots),
  );

  app.post(
    '/world_images/:guildId/:worldId/:slotId/slots',
    route({
      operationId: 'updateImageSlot',
      description:
        'Needs ManageImages. `slotId` is the Slot ID worlds bake in; the body repeats it. imageId null clears ' +
        'the image; a field left out keeps its value.',
      params: slotParams,
      body: imageSlotUpdate,
      response: { 200: imageSlot },
    }),
    async (req) =>
      updateSlot(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.params.slotId, req.body),
  );

  app.delete(
    '/world_images/:guildId/:worldId/:slotId/slots',
    route({
      operationId: 'deleteImageSlot',
      description: 'Needs ManageImages.',
      params: slotParams,
      response: { 204: z.undefined() },
    }),
    async (req, reply) => {
      await deleteSlot(ctx, requireActor(req), req.params.guildId, req.params.worldId, req.params.slotId);
      return reply.code(204).send();
    },
  );

  for (const preview of [false, true]) {
    app.get(
      `/world_images/slot_image/:guildId/:worldId/:slotId${preview ? '/preview' : ''}`,
      route({
        operationId: preview ? 'getSlotImagePreview' : 'getSlotImage',
        description: preview
          ? "Needs ViewImages. The slot's image as a PNG, longest side at most 256 (and its slot size)."
          : "Needs ViewImages. The slot's image as a PNG at its slot size (what the atlas holds); made once and kept.",
        params: slotParams,
        querystring: imageQuery,
        response: imageBytesResponses,
      }),
      async (req, reply) => {
        const { guildId, worldId, slotId } = req.params;
        return sendImage(
          req,
          reply,
          await slotImage(ctx, requireActor(req), guildId, worldId, slotId, preview),
          req.query.v,
        );
      },
    );
  }
}
