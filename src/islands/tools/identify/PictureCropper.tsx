import { type KeyboardEvent, type PointerEvent, type ReactElement, useRef, useState } from 'react';
import type { GlyphBox } from '../../../api/identify.ts';
import { IDENTIFY_MIN_CROP } from '../../../contract/identify.ts';
import { adjustBox } from './boxes.ts';

interface Props {
  src: string;
  /** The picture's size as the server keeps it; the crop is in these pixels. */
  width: number;
  height: number;
  crop: GlyphBox | undefined;
  onCrop: (crop: GlyphBox | undefined) => void;
  /** Quarter turns, degrees clockwise (0, 90, 180, 270). */
  quarter: number;
  onQuarter: (quarter: number) => void;
  /** A few degrees more, −15 to 15, to set slanted text level. */
  fine: number;
  onFine: (fine: number) => void;
}

/**
 * The image cropper (SPEC §9: pictures up to 2000 px, crops of at least 10 px): drag over the
 * picture to keep only the text, move or resize the crop with the arrow keys (Shift resizes), and
 * turn the picture by quarter turns or a few degrees to set slanted text level.
 */
export function PictureCropper({
  src,
  width,
  height,
  crop,
  onCrop,
  quarter,
  onQuarter,
  fine,
  onFine,
}: Props): ReactElement {
  const stage = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ x: number; y: number } | null>(null);
  const toPicture = (event: PointerEvent) => {
    const rect = stage.current?.getBoundingClientRect();
    if (!rect) return { x: 0, y: 0 };
    return {
      x: Math.min(width, Math.max(0, ((event.clientX - rect.left) / rect.width) * width)),
      y: Math.min(height, Math.max(0, ((event.clientY - rect.top) / rect.height) * height)),
    };
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag(toPicture(event));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const at = toPicture(event);
    const x = Math.min(drag.x, at.x);
    const y = Math.min(drag.y, at.y);
    onCrop({
      x: Math.round(x),
      y: Math.round(y),
      width: Math.round(Math.abs(at.x - drag.x)),
      height: Math.round(Math.abs(at.y - drag.y)),
    });
  };
  const onPointerUp = () => {
    setDrag(null);
    // A click or a sliver is not a crop: the whole picture is read.
    if (crop && (crop.width < IDENTIFY_MIN_CROP || crop.height < IDENTIFY_MIN_CROP)) onCrop(undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.altKey ? 1 : 10;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const current = crop ?? { x: 0, y: 0, width, height };
    const [a, b] = move;
    onCrop(adjustBox(current, event.shiftKey ? { dw: a, dh: b } : { dx: a, dy: b }, { width, height }));
  };
  const percent = (value: number, of: number) => `${(100 * value) / of}%`;
  return (
    <div className="identify-cropper">
      <div
        ref={stage}
        className="identify-stage identify-stage--crop"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
      >
        <img src={src} alt="上传的图片" draggable={false} className="identify-stage__image" />
        {crop && (
          <div
            className="identify-crop"
            role="slider"
            tabIndex={0}
            aria-label="裁剪区域：方向键移动，Shift 加方向键调整大小"
            aria-valuetext={`左 ${crop.x}，上 ${crop.y}，宽 ${crop.width}，高 ${crop.height} 像素`}
            aria-valuenow={crop.x}
            onKeyDown={onKeyDown}
            style={{
              left: percent(crop.x, width),
              top: percent(crop.y, height),
              width: percent(crop.width, width),
              height: percent(crop.height, height),
            }}
          />
        )}
      </div>
      <div className="identify-toolbar">
        <button
          type="button"
          className="btn btn--sm"
          onClick={() =>
            onCrop({
              x: Math.round(width * 0.1),
              y: Math.round(height * 0.1),
              width: Math.round(width * 0.8),
              height: Math.round(height * 0.8),
            })
          }
        >
          框选文字
        </button>
        <button type="button" className="btn btn--ghost btn--sm" disabled={!crop} onClick={() => onCrop(undefined)}>
          使用整张图片
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => onQuarter((quarter + 270) % 360)}>
          向左转 90°
        </button>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => onQuarter((quarter + 90) % 360)}>
          向右转 90°
        </button>
        <label className="identify-toolbar__range">
          微调角度
          <input
            type="range"
            min={-15}
            max={15}
            step={0.5}
            value={fine}
            onChange={(event) => onFine(Number(event.target.value))}
          />
        </label>
        <span className="pixel-hint">
          {crop ? `裁剪 ${crop.width} × ${crop.height} 像素` : `整张 ${width} × ${height} 像素`}
          {quarter || fine ? `，旋转 ${quarter + fine}°` : ''}；找字时还会自动摆正略微倾斜的文字。
        </span>
      </div>
    </div>
  );
}
