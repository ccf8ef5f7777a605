import { createServer } from 'node:net';

/** What a person reads when the port is taken: one sentence, and how to choose another port. */
export function portInUseSentence(port: number): string {
  return `Port ${port} is in use; set PORT=… to use another one (for example PORT=${port + 1} npm start).`;
}

export function isAddressInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * Whether the port can be listened on, asked before the database is opened: a second `npm start` on the same
 * data folder must stop before it touches the embedded database the first one holds.
 */
export function portIsFree(host: string, port: number): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) => (isAddressInUse(err) ? resolve(false) : reject(err)));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
