import { createHmac, timingSafeEqual } from 'node:crypto';
import { siteSecret } from '../auth/secrets.ts';
import { env } from '../env.ts';
import { forbidden } from '../http/envelope.ts';

/** How long a download link stays valid. */
export const DOWNLOAD_LINK_TTL_MS = 15 * 60 * 1000;

/** A clock the link service reads; tests pass a fake one. */
export type Clock = () => number;

/**
 * The HMAC secret: DOWNLOAD_URL_SECRET, else a random one made on first use and kept in
 * `${DATA_DIR}/secrets/download-url.key`, so that links survive a restart.
 */
export function downloadSecret(): Buffer {
  return siteSecret('download-url', env().DOWNLOAD_URL_SECRET);
}

/** The signature of a download of `gno` valid until `expires` (epoch ms), base64url HMAC-SHA256. */
export function signDownload(gno: string, expires: number, secret: Buffer = downloadSecret()): string {
  return createHmac('sha256', secret).update(`download\n${gno}\n${expires}`).digest('base64url');
}

/** The path of a signed download link of `gno`, valid for DOWNLOAD_LINK_TTL_MS from `now`. */
export function signedDownloadPath(gno: string, now: number): { path: string; expires: number } {
  const expires = now + DOWNLOAD_LINK_TTL_MS;
  const query = new URLSearchParams({ expires: String(expires), signature: signDownload(gno, expires) });
  return { path: `/api/v1/web/${encodeURIComponent(gno)}/download?${query}`, expires };
}

/**
 * Checks a download link: a signature that does not match (forged, or for another font) or a link
 * past its expiry answers 403 with a message that tells the user to fetch a new one.
 */
export function verifyDownload(
  gno: string,
  expires: string | undefined,
  signature: string | undefined,
  now: number,
): void {
  const expiresAt = Number(expires);
  const given = Buffer.from(signature ?? '', 'utf8');
  const wanted = Buffer.from(Number.isSafeInteger(expiresAt) ? signDownload(gno, expiresAt) : '', 'utf8');
  if (wanted.length === 0 || given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw forbidden('下载链接无效，请回到字体详情页重新点击下载');
  }
  if (expiresAt < now) throw forbidden('下载链接已过期，请回到字体详情页重新点击下载');
}
