import { randomUUID } from 'node:crypto';
import type { UploadTicket } from '../../contract/submissions.ts';
import { systemClock } from '../auth/clock.ts';
import { createSharedLimiter } from '../auth/shared-limiter.ts';
import { badRequest, tooManyRequests } from '../http/envelope.ts';
import { INCOMING_PREFIX, storage } from './index.ts';

// Files users send travel in two steps, whatever they are for (a submission's fonts, a custom-font
// request's attachments). A ticket hands the browser a presigned PUT (to the site's own storage or
// to the bucket) for one key under tools/incoming/<account>-<random>/, one size and one type, valid
// ten minutes; the browser sends the bytes straight to storage. The save that follows names that key: the domain checks that it
// belongs to the caller, reads the bytes, and only then moves the file under its own private folder
// and writes a row. A file that is never named expires with the tools' uploads.

/** How long an upload ticket is valid. */
const TICKET_SECONDS = 10 * 60;
/** Tickets one account may take in ten minutes, over every kind of upload. */
export const TICKETS_PER_TEN_MINUTES = 30;
// Counted in the database (auth/shared-limiter.ts), so every node of a site counts the same tickets.
const ticketRate = createSharedLimiter({
  name: 'uploadTickets',
  limit: TICKETS_PER_TEN_MINUTES,
  windowMs: 10 * 60_000,
  clock: systemClock,
});

/** A name storage keys allow, keeping the extension: the person's own file name is kept in the row. */
function keyName(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext =
    dot > 0
      ? name
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]/g, '')
          .slice(0, 8)
      : '';
  return ext ? `upload.${ext.toLowerCase()}` : 'upload';
}

/**
 * A presigned PUT for one file of `accountId`, of exactly `file.size` bytes and `contentType`. The
 * caller has checked the size and type against its own rules; this counts the account's tickets.
 */
export async function issueUploadTicket(
  accountId: number,
  file: { name: string; size: number; contentType: string },
  now = new Date(),
): Promise<UploadTicket> {
  if (file.size <= 0) throw badRequest('文件是空的，请重新选择');
  const verdict = await ticketRate.hit(`account:${accountId}`);
  if (!verdict.allowed) throw tooManyRequests(verdict.retryAfter, '上传太频繁，请稍后再试');
  const key = `${INCOMING_PREFIX}/${accountId}-${randomUUID()}/${keyName(file.name)}`;
  const { url, headers } = await storage().presignPut(key, {
    size: file.size,
    type: file.contentType,
    expiresSeconds: TICKET_SECONDS,
    now,
  });
  return { url, method: 'PUT', headers, key, expiresAt: new Date(now.getTime() + TICKET_SECONDS * 1000).toISOString() };
}

/** Refuses a key that is not an upload of this account. */
export function ownUpload(accountId: number, key: string): string {
  const pattern = new RegExp(`^${INCOMING_PREFIX}/${accountId}-[0-9a-f-]{36}/upload(\\.[a-z0-9]{1,8})?$`);
  if (!pattern.test(key)) throw badRequest('上传的文件不存在或不属于你，请重新上传');
  return key;
}

/** The extension an upload's key kept ('bin' when it had none). */
export function uploadExtension(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1).split('.')[1] ?? 'bin';
}

/** Moves an upload to its private place; answers its size. */
export async function moveUpload(from: string, to: string): Promise<number> {
  const object = await storage().get(from);
  if (!object) throw badRequest('上传的文件不存在或已过期，请重新上传');
  const stat = await storage().put(to, object.body);
  await storage().delete(from);
  return stat.size;
}
