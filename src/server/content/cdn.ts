import { env } from '../env.ts';
import { log } from '../log.ts';

// A CDN in front of the site keeps pages and API answers for a second (s-maxage) and serves them
// stale while it asks again (stale-while-revalidate). Each answer names what it shows in
// Surrogate-Key (Fastly, Varnish; space-separated) and Cache-Tag (Cloudflare, Akamai; commas), so
// a purge can reach the CDN too: with CDN_PURGE_URL set, every content change is POSTed there as
// JSON `{ "keys": [...] }` for a small adapter to pass on in the CDN's own API.

/** The key every ISR page carries: purging it purges every page. */
export const PAGES_KEY = 'pages';
/** The key every cacheable API answer carries. */
export const API_KEY = 'api';
/** The key of API answers that show a bit of every section (home, search): any change purges them. */
export const EVERY_SECTION_KEY = 'api-every-section';

/** The headers naming an answer's keys for a CDN. */
export function surrogateHeaders(keys: readonly string[]): Record<string, string> {
  return { 'Surrogate-Key': keys.join(' '), 'Cache-Tag': keys.join(',') };
}

/** How long the CDN purge call may take before it is given up (it is told again on the next change). */
const PURGE_TIMEOUT_MS = 5_000;

/** Tells the CDN which keys to purge, when CDN_PURGE_URL is set; failures are logged, never thrown. */
export async function purgeCdnKeys(keys: readonly string[]): Promise<void> {
  const url = env().CDN_PURGE_URL;
  if (!url || keys.length === 0) return;
  try {
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ keys }),
      signal: AbortSignal.timeout(PURGE_TIMEOUT_MS),
    });
    await answer.arrayBuffer();
    if (!answer.ok) log().warn({ status: answer.status, keys }, 'CDN purge refused');
  } catch (error) {
    log().warn({ err: (error as Error).message, keys }, 'CDN purge not sent');
  }
}
