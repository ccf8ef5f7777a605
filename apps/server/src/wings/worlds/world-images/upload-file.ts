import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { diskWrites } from '../../../kernel/disk.js';
import { AppError, invalid } from '../../../kernel/errors.js';
import { tooManyBytes } from './image-content.js';

export const NOT_MULTIPART = 'Send the image as multipart/form-data in the field "file".';
export const UNREADABLE_UPLOAD = 'The upload could not be read. Send one image in the field "file".';

/** An upload's `file` part as received: its name and the temporary file holding its bytes. */
export interface UploadedFile {
  name: string | undefined;
  path: string;
}

/**
 * Where uploads wait for their image work: DATA_DIR/tmp/uploads. On the data disk rather than os.tmpdir(),
 * which is often a tmpfs (memory again) and is not the operator's choice of storage.
 */
export const uploadTempDir = (dataDir: string) => join(resolve(dataDir), 'tmp', 'uploads');

/**
 * Streams the upload's `file` part to a temporary file and runs `use` with it: the request body is never held
 * in memory, so uploads waiting for an image work slot cost disk, not heap. Past `maxBytes` the upload stops
 * at once with 413 (the rest of the body is not read). The file is removed whatever happens: success, a
 * refusal, an error in `use`, or a client that went away mid-upload.
 */
export async function withUploadedFile<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
  dir: string,
  use: (file: UploadedFile) => Promise<T>,
): Promise<T> {
  if (!req.isMultipart()) throw invalid(NOT_MULTIPART);
  const path = join(dir, `${randomUUID()}.upload`);
  try {
    const name = await receiveFilePart(req, reply, maxBytes, path);
    return await use({ name, path });
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * A sink writing the upload to `path`. A write the disk refuses (full) is kept as `failure` and the rest of
 * the upload is read into nothing: the request body is consumed, so the answer (507, the server's fault,
 * not the upload's) comes after it and the connection can carry the next request.
 */
function uploadSink(path: string) {
  let handle: FileHandle | undefined;
  let failure: unknown;
  const sink = new Writable({
    construct(done) {
      mkdir(join(path, '..'), { recursive: true })
        .then(() => diskWrites.open(path, 'wx'))
        .then((opened) => {
          handle = opened;
        })
        .catch((err: unknown) => {
          failure = err;
        })
        .finally(() => done());
    },
    write(chunk: Buffer, _encoding, done) {
      if (failure || !handle) return done();
      diskWrites.write(handle, chunk).then(
        () => done(),
        (err: unknown) => {
          failure = err;
          done();
        },
      );
    },
    final(done) {
      const opened = handle;
      handle = undefined;
      if (!opened) return done();
      opened.close().then(
        () => done(),
        (err: unknown) => {
          failure ??= err;
          done();
        },
      );
    },
    destroy(err, done) {
      handle?.close().catch(() => {});
      handle = undefined;
      done(err);
    },
  });
  return { sink, failure: () => failure };
}

/**
 * Writes the `file` part to `path`; answers its file name, or throws a 4xx sentence (413 past the limit).
 * A write that failed (a full disk) is thrown as it is, after the whole upload was read.
 */
async function receiveFilePart(req: FastifyRequest, reply: FastifyReply, maxBytes: number, path: string) {
  const { sink, failure } = uploadSink(path);
  const name = await readFilePart(req, reply, maxBytes, sink);
  const failed = failure();
  if (failed) throw failed;
  return name;
}

async function readFilePart(req: FastifyRequest, reply: FastifyReply, maxBytes: number, sink: Writable) {
  try {
    const part = await req.file({
      limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 100 },
    });
    if (part?.fieldname !== 'file') throw invalid(NOT_MULTIPART);
    // busboy stops passing bytes at the limit but would read the rest of the body before ending the part:
    // failing the stream here answers 413 while the client is still sending. The rest of the body is never
    // read, so the connection closes after the answer (else it would wait for the client for good).
    part.file.once('limit', () => {
      reply.header('connection', 'close');
      part.file.destroy(invalid(tooManyBytes(maxBytes), 'too-large'));
    });
    await pipeline(part.file, sink);
    if (part.file.truncated) throw invalid(tooManyBytes(maxBytes), 'too-large');
    return part.filename;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw invalid(tooManyBytes(maxBytes), 'too-large');
    throw invalid(UNREADABLE_UPLOAD);
  }
}
