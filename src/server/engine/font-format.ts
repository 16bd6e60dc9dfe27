/** The font containers the tools read. */
export type { FontFormat } from '../../contract/tools.ts';

import type { FontFormat } from '../../contract/tools.ts';

/** The file extension, MIME type and display name of each format the tools read or write. */
export const FORMAT_INFO = {
  ttf: { ext: 'ttf', mime: 'font/ttf', label: 'TTF' },
  otf: { ext: 'otf', mime: 'font/otf', label: 'OTF' },
  ttc: { ext: 'ttc', mime: 'font/collection', label: 'TTC' },
  woff: { ext: 'woff', mime: 'font/woff', label: 'WOFF' },
  woff2: { ext: 'woff2', mime: 'font/woff2', label: 'WOFF2' },
  eot: { ext: 'eot', mime: 'application/vnd.ms-fontobject', label: 'EOT' },
  svg: { ext: 'svg', mime: 'image/svg+xml', label: 'SVG' },
  zip: { ext: 'zip', mime: 'application/zip', label: 'ZIP' },
} as const;

/**
 * Tells the format from the first bytes, never from the file name: a PNG renamed to .ttf is not
 * a font. EOT has no magic at the start; its header carries 0x504C at byte 34 and its own
 * length at byte 0, which together are specific enough.
 */
export function sniffFontFormat(bytes: Uint8Array): FontFormat | undefined {
  if (bytes.byteLength < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0);
  switch (magic) {
    case 0x00010000:
    case 0x74727565: // 'true', old Apple TrueType
      return 'ttf';
    case 0x4f54544f: // 'OTTO'
      return 'otf';
    case 0x74746366: // 'ttcf'
      return 'ttc';
    case 0x774f4646: // 'wOFF'
      return 'woff';
    case 0x774f4632: // 'wOF2'
      return 'woff2';
  }
  if (bytes.byteLength >= 82) {
    const version = view.getUint32(8, true);
    const knownVersion = version === 0x00010000 || version === 0x00020001 || version === 0x00020002;
    if (knownVersion && view.getUint16(34, true) === 0x504c) return 'eot';
  }
  return undefined;
}
