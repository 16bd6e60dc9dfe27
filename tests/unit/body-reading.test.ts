import type { IncomingMessage } from 'node:http';
import { describe, expect, test } from 'vitest';
import { bodyBeingRead, markBodyRead } from '../../src/server/http/body-reading.ts';

// The served site loads the server's modules twice: the API app's body gate runs in the Astro
// bundle's copy, the body guard in scripts/start.ts's. A body marked read by one copy must be seen
// by the other, or the guard never drops a body that stops arriving.

describe('which bodies are being read', () => {
  test('is one record for the process, whichever copy of the module marks it', async () => {
    // A second instance of the module, as the bundle holds one beside the server's.
    const copy = (await import(
      /* @vite-ignore */ `../../src/server/http/body-reading.ts?copy=${Date.now()}`
    )) as typeof import('../../src/server/http/body-reading.ts');
    expect(copy.markBodyRead).not.toBe(markBodyRead);
    const request = {} as IncomingMessage;
    const other = {} as IncomingMessage;
    expect(bodyBeingRead(request)).toBe(false);
    copy.markBodyRead(request);
    expect(bodyBeingRead(request)).toBe(true);
    markBodyRead(other);
    expect(copy.bodyBeingRead(other)).toBe(true);
    expect(copy.bodyBeingRead({} as IncomingMessage)).toBe(false);
  });
});
