import type { MessagePort } from 'node:worker_threads';
import type { SimulatorEndpoints } from '../kernel/config.js';

/** What the main thread hands the API thread (api-thread.ts) at its start. */
export interface ApiThreadData {
  /** The questions and notices between the two threads (thread-link.ts). */
  link: MessagePort;
  /** A connection to the embedded database's thread (PgliteRemote.openPort). */
  database: MessagePort;
  /** Where the embedded database keeps large bytes as files (the main thread's Database.fileDir). */
  fileDir?: string;
  /** Demo mode: the simulator the main thread started or found. */
  simulator?: SimulatorEndpoints;
  host: string;
  port: number;
  /** Whether the process's stdout is a terminal (the thread's own is a pipe): its log lines look the same. */
  terminal: boolean;
}
