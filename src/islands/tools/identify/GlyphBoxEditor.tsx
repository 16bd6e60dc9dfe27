import { type KeyboardEvent, type PointerEvent, type ReactElement, useRef } from 'react';
import type { GlyphBox } from '../../../api/identify.ts';
import { adjustBox, type EditableGlyph } from './boxes.ts';

interface Props {
  image: string;
  width: number;
  height: number;
  glyphs: EditableGlyph[];
  selected: number | null;
  onSelect: (key: number | null) => void;
  /** A box moved or resized; `done` is true when the drag or key press is over. */
  onChange: (key: number, box: GlyphBox, done: boolean) => void;
  onDrop: (key: number) => void;
}

interface Drag {
  key: number;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  box: GlyphBox;
  last: GlyphBox;
}

/**
 * The glyph boxes over the prepared picture: a box is picked by click or Tab, dragged to move it,
 * resized by its corner; on the keyboard the arrows move it (Shift resizes, Alt by one pixel) and
 * Delete drops it.
 */
export function GlyphBoxEditor(props: Props): ReactElement {
  const { image, width, height, glyphs, selected } = props;
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const scale = () => {
    const rect = stage.current?.getBoundingClientRect();
    return rect ? width / rect.width : 1;
  };
  const start = (event: PointerEvent<HTMLElement>, glyph: EditableGlyph, mode: Drag['mode']) => {
    if (event.button !== 0) return;
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    props.onSelect(glyph.key);
    drag.current = {
      key: glyph.key,
      mode,
      startX: event.clientX,
      startY: event.clientY,
      box: glyph.box,
      last: glyph.box,
    };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current) return;
    const factor = scale();
    const dx = (event.clientX - current.startX) * factor;
    const dy = (event.clientY - current.startY) * factor;
    const box = adjustBox(current.box, current.mode === 'move' ? { dx, dy } : { dw: dx, dh: dy }, { width, height });
    current.last = box;
    props.onChange(current.key, box, false);
  };
  const end = () => {
    const current = drag.current;
    drag.current = null;
    if (current && current.last !== current.box) props.onChange(current.key, current.last, true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, glyph: EditableGlyph) => {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      props.onDrop(glyph.key);
      return;
    }
    const step = event.altKey ? 1 : 4;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const delta = moves[event.key];
    if (!delta) return;
    event.preventDefault();
    const [a, b] = delta;
    props.onChange(
      glyph.key,
      adjustBox(glyph.box, event.shiftKey ? { dw: a, dh: b } : { dx: a, dy: b }, { width, height }),
      true,
    );
  };
  const percent = (value: number, of: number) => `${(100 * value) / of}%`;
  return (
    <div ref={stage} className="identify-stage" onPointerDown={() => props.onSelect(null)}>
      <img src={image} alt="摆正后的图片" draggable={false} className="identify-stage__image" />
      {glyphs.map((glyph, i) => (
        <button
          key={glyph.key}
          type="button"
          className="identify-box"
          data-selected={glyph.key === selected || undefined}
          aria-pressed={glyph.key === selected}
          aria-label={`第 ${i + 1} 个字框${glyph.character ? `：${glyph.character}` : ''}。方向键移动，Shift 加方向键调整大小，Delete 删除`}
          style={{
            left: percent(glyph.box.x, width),
            top: percent(glyph.box.y, height),
            width: percent(glyph.box.width, width),
            height: percent(glyph.box.height, height),
          }}
          onPointerDown={(event) => start(event, glyph, 'move')}
          onPointerMove={move}
          onPointerUp={end}
          onFocus={() => props.onSelect(glyph.key)}
          onKeyDown={(event) => onKeyDown(event, glyph)}
        >
          <span className="identify-box__number" aria-hidden="true">
            {i + 1}
          </span>
          {glyph.key === selected && (
            <span
              className="identify-box__handle"
              aria-hidden="true"
              onPointerDown={(event) => start(event, glyph, 'resize')}
              onPointerMove={move}
              onPointerUp={end}
            />
          )}
        </button>
      ))}
    </div>
  );
}
