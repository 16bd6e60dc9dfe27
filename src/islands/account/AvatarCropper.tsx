import { type KeyboardEvent, type PointerEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';

/** SPEC §9: the cropper scales larger images down to this many pixels on the longer side. */
export const CROPPER_MAX_IMAGE = 2000;
/** SPEC §9: the smallest crop, in image pixels. */
export const CROPPER_MIN_CROP = 10;
/** The side of the image that is uploaded (the server stores 256 × 256). */
const OUTPUT_SIZE = 512;

interface Box {
  x: number;
  y: number;
  size: number;
}

/** Props of {@link AvatarCropper}. */
export interface AvatarCropperProps {
  file: File;
  busy?: boolean;
  onCancel(): void;
  onCropped(image: Blob): void;
}

async function loadImage(file: File): Promise<HTMLCanvasElement> {
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    // Images above the maximum are scaled down first, so the crop works on at most 2000 × 2000.
    const scale = Math.min(1, CROPPER_MAX_IMAGE / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas;
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * A square cropper for the avatar: drag the frame (or move it with the arrow keys, +/− to resize),
 * set its size with the slider, and the cropped square is handed over as a PNG.
 */
export default function AvatarCropper({ file, busy, onCancel, onCropped }: AvatarCropperProps): ReactElement {
  const [source, setSource] = useState<HTMLCanvasElement | null>(null);
  const [preview, setPreview] = useState('');
  const [box, setBox] = useState<Box>({ x: 0, y: 0, size: CROPPER_MIN_CROP });
  const [scale, setScale] = useState(1);
  const [error, setError] = useState('');
  const image = useRef<HTMLImageElement>(null);
  const drag = useRef<{ x: number; y: number; box: Box } | null>(null);
  const sizeId = useId();

  useEffect(() => {
    let cancelled = false;
    loadImage(file)
      .then((canvas) => {
        if (cancelled) return;
        const side = Math.min(canvas.width, canvas.height);
        const size = Math.max(Math.min(side, CROPPER_MIN_CROP), Math.round(side * 0.8));
        setSource(canvas);
        setPreview(canvas.toDataURL('image/png'));
        setBox({ x: Math.round((canvas.width - size) / 2), y: Math.round((canvas.height - size) / 2), size });
      })
      .catch(() => setError('无法读取这张图片，请换一张 JPG、PNG、WebP 或 GIF 图片'));
    return () => {
      cancelled = true;
    };
  }, [file]);

  useEffect(() => {
    const remeasure = () => {
      if (image.current && source) setScale(image.current.clientWidth / source.width || 1);
    };
    window.addEventListener('resize', remeasure);
    return () => window.removeEventListener('resize', remeasure);
  }, [source]);

  function clampBox(next: Box): Box {
    if (!source) return next;
    const maxSize = Math.min(source.width, source.height);
    const size = Math.round(Math.min(maxSize, Math.max(Math.min(CROPPER_MIN_CROP, maxSize), next.size)));
    return {
      size,
      x: Math.round(Math.min(source.width - size, Math.max(0, next.x))),
      y: Math.round(Math.min(source.height - size, Math.max(0, next.y))),
    };
  }

  function measure(): void {
    if (image.current && source) setScale(image.current.clientWidth / source.width || 1);
  }

  function onPointerDown(event: PointerEvent<HTMLButtonElement>): void {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { x: event.clientX, y: event.clientY, box };
  }

  function onPointerMove(event: PointerEvent<HTMLButtonElement>): void {
    const start = drag.current;
    if (!start) return;
    setBox(
      clampBox({
        ...start.box,
        x: start.box.x + (event.clientX - start.x) / scale,
        y: start.box.y + (event.clientY - start.y) / scale,
      }),
    );
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>): void {
    const step = event.shiftKey ? 10 : 1;
    const moves: Record<string, Partial<Box>> = {
      ArrowLeft: { x: box.x - step },
      ArrowRight: { x: box.x + step },
      ArrowUp: { y: box.y - step },
      ArrowDown: { y: box.y + step },
      '+': { size: box.size + step },
      '=': { size: box.size + step },
      '-': { size: box.size - step },
    };
    const change = moves[event.key];
    if (!change) return;
    event.preventDefault();
    setBox(clampBox({ ...box, ...change }));
  }

  function crop(): void {
    if (!source) return;
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = Math.min(OUTPUT_SIZE, box.size);
    canvas.getContext('2d')?.drawImage(source, box.x, box.y, box.size, box.size, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => blob && onCropped(blob), 'image/png');
  }

  if (error) {
    return (
      <div className="avatar-cropper" role="alert">
        <p className="account-field__error">{error}</p>
        <div className="avatar-cropper__actions">
          <button type="button" className="btn" onClick={onCancel}>
            重新选择
          </button>
        </div>
      </div>
    );
  }

  const maxSize = source ? Math.min(source.width, source.height) : CROPPER_MIN_CROP;
  return (
    <div className="avatar-cropper">
      <div className="avatar-cropper__stage">
        {preview && <img ref={image} src={preview} alt="待裁剪的头像图片" onLoad={measure} draggable={false} />}
        {preview && (
          <button
            type="button"
            className="avatar-cropper__box"
            aria-label="裁剪框：拖动或用方向键移动，加号和减号调整大小"
            style={{ left: box.x * scale, top: box.y * scale, width: box.size * scale, height: box.size * scale }}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={() => {
              drag.current = null;
            }}
            onKeyDown={onKeyDown}
          />
        )}
      </div>
      <div className="avatar-cropper__controls">
        <label htmlFor={sizeId}>裁剪大小（{box.size} 像素）</label>
        <input
          id={sizeId}
          type="range"
          min={Math.min(CROPPER_MIN_CROP, maxSize)}
          max={maxSize}
          value={box.size}
          onChange={(event) => setBox(clampBox({ ...box, size: Number(event.target.value) }))}
        />
      </div>
      <div className="avatar-cropper__actions">
        <button type="button" className="btn btn--primary" onClick={crop} disabled={!source || busy}>
          {busy ? '上传中…' : '保存头像'}
        </button>
        <button type="button" className="btn" onClick={onCancel} disabled={busy}>
          取消
        </button>
      </div>
    </div>
  );
}
