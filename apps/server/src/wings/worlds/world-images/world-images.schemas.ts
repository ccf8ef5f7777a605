import { z } from 'zod';
import { errorBody } from '../../../http/errors.js';
import { snowflake } from '../../../http/params.js';
import { SLOT_MAX_DIMENSIONS } from './slot-size.js';

/** A world may have this many image slots (each is a poster the atlas must hold). */
export const MAX_SLOTS_PER_WORLD = 256;
export const MAX_IMAGE_NAME_LENGTH = 100;

export const worldImage = z.object({
  id: z.uuid(),
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** SHA-256 of the stored bytes: changes when the image is turned. */
  imageHash: z.string(),
});
z.globalRegistry.add(worldImage, { id: 'WorldImage' });

export const worldImagesResponse = z.object({ images: z.array(worldImage) });
z.globalRegistry.add(worldImagesResponse, { id: 'WorldImagesResponse' });

export const imageSlot = z.object({
  id: z.uuid(),
  /** The number worlds bake in; unique in its world. */
  slotId: z.number().int(),
  worldId: z.uuid(),
  name: z.string(),
  imageId: z.uuid().nullable(),
  imageName: z.string().nullable(),
  imageHash: z.string().nullable(),
  maxDimension: z.number().int(),
  /** The size the image takes in the atlas (slotSize); null when the slot has no image. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  order: z.number().int(),
});
z.globalRegistry.add(imageSlot, { id: 'ImageSlot' });

export const imageSlotsResponse = z.object({ imageSlots: z.array(imageSlot) });
z.globalRegistry.add(imageSlotsResponse, { id: 'ImageSlotsResponse' });

const order = z.number().int().min(0).max(100_000);
const maxDimension = z
  .number()
  .int()
  .refine((n) => (SLOT_MAX_DIMENSIONS as readonly number[]).includes(n), {
    message: `must be one of ${SLOT_MAX_DIMENSIONS.join(', ')}`,
  });

/** A slot's settings: slotId must repeat the one in the address; a field left out keeps its value. */
export const imageSlotUpdate = z
  .object({
    slotId: z.number().int(),
    /** null: Clear Image. */
    imageId: z.uuid().nullable().optional(),
    name: z.string().trim().max(MAX_IMAGE_NAME_LENGTH).optional(),
    maxDimension: maxDimension.optional(),
    order: order.optional(),
  })
  .strip();
export type ImageSlotUpdate = z.infer<typeof imageSlotUpdate>;

export const imageSlotsReorder = z.object({
  imageSlots: z.array(z.object({ id: z.uuid(), order }).strip()).max(MAX_SLOTS_PER_WORLD),
});

export const rotation = z.object({ rotation: z.enum(['Clockwise', 'CounterClockwise']) });

const slotNumber = z.coerce.number().int().min(0).max(2_147_483_647);
export const guildParams = z.object({ guildId: snowflake });
export const imageParams = z.object({ guildId: snowflake, imageId: z.uuid() });
export const worldParams = z.object({ guildId: snowflake, worldId: z.uuid() });
export const slotParams = z.object({ guildId: snowflake, worldId: z.uuid(), slotId: slotNumber });

/** `?v=`: the image's version (see docs/worlds.md); with the current one the answer is cached for good. */
export const imageQuery = z.object({
  v: z
    .string()
    .max(200)
    .optional()
    .describe(
      'imageHash (images, previews) or imageHash-maxDimension (slot images): cached for good when current',
    ),
});

/** Image answers (besides the usual errors): the bytes (with an ETag), or 304 when If-None-Match names that ETag. */
export const imageBytesResponses = {
  200: z.any().describe('The image bytes (image/png, image/jpeg or image/webp), with an ETag'),
  304: z.undefined().describe('Not modified: If-None-Match named the current ETag'),
};

/**
 * The upload form for the OpenAPI document: one file part named `file`. Validation accepts anything (the
 * multipart parser leaves no body; the handler reads the part and answers its own 400s).
 */
export const uploadForm = z.any().meta({
  type: 'object',
  properties: {
    file: { type: 'string', format: 'binary', description: 'The image: PNG, JPEG, WebP or GIF' },
  },
  required: ['file'],
});

/** The upload's refusals besides the usual ones. */
export const uploadRefusals = { 413: errorBody, 415: errorBody, 422: errorBody };
