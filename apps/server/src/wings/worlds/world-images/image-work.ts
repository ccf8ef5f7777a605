import sharp from 'sharp';

/**
 * Image work (decoding an upload, encoding it again, scaling, turning) holds the whole picture in memory:
 * a 40-megapixel upload is 160 MB of pixels. One process does at most IMAGE_WORK_SLOTS such jobs at once,
 * the others wait their turn, so six uploads at once cost two uploads' memory (and leave cores for requests).
 */
export const IMAGE_WORK_SLOTS = 2;

// libvips: one thread per image (the slots give the parallelism) and no cache of decoded images.
sharp.concurrency(1);
sharp.cache(false);

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when one of the process's image work slots is free. */
export async function withImageSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= IMAGE_WORK_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    // The slot passes straight to the next in line (running stays the same), else it is freed.
    if (next) next();
    else running -= 1;
  }
}
