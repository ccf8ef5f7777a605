import sharp from 'sharp';

/** Test helpers for World Images: images made with sharp and multipart bodies as a browser sends them. */

/** A solid-colour image of a size, in a format. */
export async function solidImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' = 'png',
  background = { r: 200, g: 40, b: 40, alpha: 1 },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background } })
    .toFormat(format)
    .toBuffer();
}

/** A multipart/form-data body with one file part (field `file` unless told). */
export function multipartFile(
  fileName: string,
  bytes: Buffer,
  opts: { field?: string; contentType?: string } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----vrclink${Math.random().toString(16).slice(2)}`;
  const head =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="${opts.field ?? 'file'}"; filename="${fileName}"\r\n` +
    `Content-Type: ${opts.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
