import { type ReactElement, useEffect, useRef } from 'react';
import type { GlyphBox } from '../../../api/identify.ts';

/** The person's glyph cut from the prepared picture, drawn into a small square. */
export function GlyphCrop({
  image,
  box,
  size = 56,
}: {
  image: HTMLImageElement | null;
  box: GlyphBox;
  size?: number;
}): ReactElement {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx || !image) return;
    const ratio = window.devicePixelRatio || 1;
    const side = size * ratio;
    if (canvas.current) {
      canvas.current.width = side;
      canvas.current.height = side;
    }
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, side, side);
    const scale = (side * 0.86) / Math.max(box.width, box.height);
    const w = box.width * scale;
    const h = box.height * scale;
    ctx.drawImage(image, box.x, box.y, box.width, box.height, (side - w) / 2, (side - h) / 2, w, h);
  }, [image, box, size]);
  return <canvas ref={canvas} className="identify-crop-thumb" style={{ width: size, height: size }} />;
}
