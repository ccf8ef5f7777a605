import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError, invalid } from '../../../kernel/errors.js';
import { withImageSlot } from './image-work.js';
import { slotSize } from './slot-size.js';

/**
 * What an upload is, decided from its bytes only (never its name or declared type): PNG, JPEG, WebP or GIF,
 * by magic bytes and then by sharp reading the header. Pixels are decoded only after the header's size passed.
 */
export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export const contentTypes: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

export const NOT_AN_IMAGE = 'The file is not a PNG, JPEG, WebP or GIF image.';
export const DAMAGED_IMAGE = 'The image is damaged and cannot be read.';
/** Longest side of an image's preview (the Server Images cards). */
export const PREVIEW_SIZE = 256;

export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
}

/** A number for a sentence: 10, 4.8 (one decimal at most). */
const amount = (n: number) => String(Math.round(n * 10) / 10);
export const tooManyBytes = (maxBytes: number) =>
  `The file is larger than ${amount(maxBytes / 1024 / 1024)} MB.`;
export const tooManyPixels = (maxPixels: number) =>
  `The image is larger than ${amount(maxPixels / 1_000_000)} megapixels.`;

/** The format the first bytes announce, or null. */
export function sniffFormat(bytes: Buffer): ImageFormat | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'gif';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Whether a PNG file is animated (APNG): an `acTL` chunk before the first `IDAT`, walking the chunk headers. */
export async function isAnimatedPng(file: FileHandle): Promise<boolean> {
  const header = Buffer.alloc(8);
  for (let at = 8; ; ) {
    const { bytesRead } = await file.read(header, 0, 8, at);
    if (bytesRead < 8) return false;
    const type = header.toString('latin1', 4, 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + header.readUInt32BE(0);
  }
}

/** The format a file's first bytes announce, or null. */
async function sniffFile(file: FileHandle): Promise<ImageFormat | null> {
  const head = Buffer.alloc(12);
  const { bytesRead } = await file.read(head, 0, 12, 0);
  return sniffFormat(head.subarray(0, bytesRead));
}

export const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An image as stored: its bytes, what they are, and a preview made from them. */
export interface StoredImage {
  hash: string;
  bytes: Buffer;
  contentType: string;
  width: number;
  height: number;
  preview: { size: number; bytes: Buffer };
}

/** What a file's first bytes say: its format, and for a PNG whether it is animated. */
async function readFileStart(path: string) {
  const file = await open(path, 'r');
  try {
    const format = await sniffFile(file);
    return { format, animatedPng: format === 'png' && (await isAnimatedPng(file)) };
  } finally {
    await file.close();
  }
}

/** Decoding options for untrusted bytes: the pixel limit again (defence in depth), one frame, errors fail. */
const untrusted = (maxPixels: number) =>
  ({ limitInputPixels: maxPixels, failOn: 'error', pages: 1, animated: false }) as const;

/**
 * Checks an upload and turns it into what is stored: always encoded again from its pixels, so nothing else
 * the file carried (EXIF, XMP, PNG text chunks, bytes after the image's end) is kept or served. A GIF (or any
 * animation) becomes a PNG of its first frame; an EXIF orientation is applied, so width and height are what
 * people see. Refusals are 413/415/422 sentences.
 */
export function readUpload(path: string, limits: UploadLimits): Promise<StoredImage> {
  // The upload waits for its turn as a file (upload-file.ts); sharp reads it from there.
  return withImageSlot(() => readUploadNow(path, limits));
}

async function readUploadNow(path: string, limits: UploadLimits): Promise<StoredImage> {
  const { format, animatedPng } = await readFileStart(path);
  if (!format) throw invalid(NOT_AN_IMAGE, 'unsupported-type');
  let meta: Metadata;
  try {
    // Reads the header only: the declared size is known before any pixel is decoded.
    meta = await sharp(path, { limitInputPixels: false, pages: 1 }).metadata();
  } catch {
    throw invalid(NOT_AN_IMAGE, 'unsupported-type');
  }
  if (meta.format !== format || !meta.width || !meta.height) throw invalid(NOT_AN_IMAGE, 'unsupported-type');
  const frameHeight = meta.pageHeight ?? meta.height;
  if (meta.width * frameHeight > limits.maxPixels)
    throw invalid(tooManyPixels(limits.maxPixels), 'too-large');

  try {
    // An animation (GIF, animated WebP or PNG) keeps only its first frame, as a PNG: a poster does not move.
    const animated = format === 'gif' || (meta.pages ?? 1) > 1 || animatedPng;
    const out = animated ? 'png' : format;
    // Only pixels leave the server: sharp writes no metadata unless asked, and encoding from the decoded
    // pixels drops text chunks (an author's name, a comment) and anything appended after the image's end.
    const { data, info } = await encode(sharp(path, untrusted(limits.maxPixels)).autoOrient(), out).toBuffer({
      resolveWithObject: true,
    });
    const stored = { bytes: data, format: out, width: info.width, height: info.height };
    // Rendering the preview decodes every pixel: a damaged file is refused here, not when first shown.
    const preview = await renderScaled(
      stored.bytes,
      stored.width,
      stored.height,
      PREVIEW_SIZE,
      limits.maxPixels,
    );
    return {
      hash: hashOf(stored.bytes),
      bytes: stored.bytes,
      contentType: contentTypes[stored.format],
      width: stored.width,
      height: stored.height,
      preview,
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalid(DAMAGED_IMAGE, 'unreadable');
  }
}

/** Encodes in a format, lossy ones at a quality that keeps posters sharp. */
function encode(image: Sharp, format: Exclude<ImageFormat, 'gif'>): Sharp {
  if (format === 'jpeg') return image.jpeg({ quality: 92 });
  if (format === 'webp') return image.webp({ quality: 92 });
  return image.png();
}

/**
 * The image scaled by the slot rule (`slotSize`: longest side at most `maxDimension`, never enlarged) as a
 * PNG. Previews and slot images both come from here, so the cache key (hash, longest side) means one picture.
 */
export async function renderScaled(
  bytes: Buffer,
  width: number,
  height: number,
  maxDimension: number,
  maxPixels: number | false = false,
): Promise<{ size: number; bytes: Buffer }> {
  const target = slotSize(width, height, maxDimension);
  const data = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', pages: 1 })
    .resize(target.width, target.height, { fit: 'fill' })
    .png()
    .toBuffer();
  return { size: Math.max(target.width, target.height), bytes: data };
}

/** The longest side `renderScaled` gives an image for a maximum: the preview cache key. */
export function scaledSize(width: number, height: number, maxDimension: number): number {
  const target = slotSize(width, height, maxDimension);
  return Math.max(target.width, target.height);
}

/** A stored image turned a quarter, in its own format: the new bytes and size. */
export async function rotateQuarter(
  bytes: Buffer,
  contentType: string,
  direction: 'Clockwise' | 'CounterClockwise',
): Promise<{ hash: string; bytes: Buffer; contentType: string; width: number; height: number }> {
  const format = (Object.keys(contentTypes) as ImageFormat[]).find((f) => contentTypes[f] === contentType);
  const out = format === 'jpeg' || format === 'webp' ? format : 'png';
  const { data, info } = await encode(
    sharp(bytes, { limitInputPixels: false, pages: 1 }).rotate(direction === 'Clockwise' ? 90 : -90),
    out,
  ).toBuffer({ resolveWithObject: true });
  return {
    hash: hashOf(data),
    bytes: data,
    contentType: contentTypes[out],
    width: info.width,
    height: info.height,
  };
}
