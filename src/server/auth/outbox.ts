import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log.ts';
import type { MessageSender, OutgoingMessage } from './messages.ts';

/** One message as the outbox keeps it: a JSON file per message (`code` only for code messages). */
export type OutboxEntry = DistributiveOmit<OutgoingMessage, 'to'> & {
  /** The mobile number or e-mail address the message was for. */
  recipient: string;
  createdAt: string;
  code?: string;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * A sender that keeps messages in `dir` (DATA_DIR/outbox) instead of delivering them, so a fresh
 * install can register accounts with no mail server or SMS provider. A developer reads the code
 * from the newest file; the log says where it is.
 */
export function createOutboxSender(dir: string): MessageSender {
  return {
    name: 'outbox',
    async send(message) {
      await fs.mkdir(dir, { recursive: true });
      const createdAt = new Date().toISOString();
      const name = `${createdAt.replace(/[:.]/g, '-')}-${message.channel}-${randomBytes(4).toString('hex')}.json`;
      const file = path.join(dir, name);
      const { to, ...rest } = message;
      const entry: OutboxEntry = { ...rest, recipient: to, createdAt };
      // Written aside and renamed, so a reader never sees half a file.
      await fs.writeFile(`${file}.partial`, `${JSON.stringify(entry, null, 2)}\n`, { mode: 0o600 });
      await fs.rename(`${file}.partial`, file);
      log().info(
        { channel: message.channel, to: message.to, purpose: message.purpose, file },
        'No delivery service is configured; the message was written to the local outbox',
      );
    },
  };
}

/** Reads the outbox, oldest first (for tests and developer tools). */
export async function readOutbox(dir: string): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (name) => JSON.parse(await fs.readFile(path.join(dir, name), 'utf8'))));
}
