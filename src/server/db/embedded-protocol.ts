// What the server's thread and the embedded database's thread (embedded-host.ts) say to each other:
// PostgreSQL wire-protocol bytes of numbered client connections, and the host's own life.

/** How the host opens PGlite. */
export interface HostSetup {
  /** A data folder, or 'memory://'. */
  dir: string;
  /** An in-memory database starts from this data folder's dump (tests). */
  loadDataDir?: Uint8Array<ArrayBuffer> | undefined;
  /** PostgreSQL's `shared_buffers` in MB; PGlite's default when left out. */
  sharedBuffersMB?: number | undefined;
}

export type HostRequest =
  | { type: 'open'; id: number }
  /** Bytes a connection wrote; `seq` numbers every write of every connection. */
  | { type: 'data'; id: number; seq: number; bytes: Uint8Array }
  | { type: 'close'; id: number }
  /** Checkpoint and close PGlite. */
  | { type: 'shutdown' };

export type HostReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  /** PGlite's answer to the write numbered `seq` (empty when it had nothing to say). */
  | { type: 'data'; id: number; seq: number; bytes: Uint8Array }
  | { type: 'error'; id: number; seq: number; message: string }
  | { type: 'closed'; message?: string };
