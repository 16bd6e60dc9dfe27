import { type KeyboardEvent, type ReactElement, useMemo, useRef, useState } from 'react';
import type { PixelEdit } from '../../api/font-tools.ts';

interface Props {
  /** The glyph as it is now (edited or drawn). */
  glyph: PixelEdit;
  grid: number;
  /** Whether the glyph differs from the drawn one. */
  edited: boolean;
  onChange: (bits: string) => void;
  onRevert: () => void;
  onUndo: () => void;
  onRedo: () => void;
  canUndo: boolean;
  canRedo: boolean;
}

/**
 * One glyph on its grid, cell by cell: a click or a drag paints (the first cell decides ink or
 * paper), arrow keys move between cells and Space or Enter toggles one; Ctrl+Z and Ctrl+Y (or
 * Ctrl+Shift+Z) undo and redo. Each cell is a toggle button; the grid is one tab stop, with the
 * focused cell remembered.
 */
export function PixelEditor({
  glyph,
  grid,
  edited,
  onChange,
  onRevert,
  onUndo,
  onRedo,
  canUndo,
  canRedo,
}: Props): ReactElement {
  const [focus, setFocus] = useState(0);
  const painting = useRef<string | null>(null);
  const cells = useRef<Array<HTMLButtonElement | null>>([]);
  const { width, bits } = glyph;
  const character = String.fromCodePoint(glyph.codePoint);
  // Stable keys for the cells of this glyph's grid.
  const cellIds = useMemo(() => Array.from({ length: width * grid }, (_, i) => `${width}x${grid}-${i}`), [width, grid]);

  const set = (index: number, value: string) => {
    if (bits[index] === value) return;
    onChange(bits.slice(0, index) + value + bits.slice(index + 1));
  };
  const move = (index: number) => {
    setFocus(index);
    cells.current[index]?.focus();
  };

  function onKeyDown(event: KeyboardEvent<HTMLFieldSetElement>): void {
    const row = Math.floor(focus / width);
    const column = focus % width;
    const key = event.key;
    if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === 'z') {
      event.preventDefault();
      if (event.shiftKey) onRedo();
      else onUndo();
      return;
    }
    if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === 'y') {
      event.preventDefault();
      onRedo();
      return;
    }
    const moves: Record<string, number> = {
      ArrowLeft: column > 0 ? focus - 1 : focus,
      ArrowRight: column < width - 1 ? focus + 1 : focus,
      ArrowUp: row > 0 ? focus - width : focus,
      ArrowDown: row < grid - 1 ? focus + width : focus,
      Home: row * width,
      End: row * width + width - 1,
    };
    const target = moves[key];
    if (target !== undefined) {
      event.preventDefault();
      move(target);
    }
  }

  return (
    <div className="pixel-editor">
      <div className="pixel-editor__bar">
        <p className="pixel-editor__title">
          正在编辑「{character}」<span className="pixel-editor__size">{`${width} × ${grid}`}</span>
          {edited && <span className="pixel-editor__badge">已修改</span>}
        </p>
        <div className="pixel-editor__actions">
          <button type="button" className="btn btn--ghost" onClick={onUndo} disabled={!canUndo}>
            撤销
          </button>
          <button type="button" className="btn btn--ghost" onClick={onRedo} disabled={!canRedo}>
            重做
          </button>
          <button type="button" className="btn btn--ghost" onClick={onRevert} disabled={!edited}>
            恢复原样
          </button>
        </div>
      </div>
      <fieldset
        className="pixel-editor__grid"
        style={{ gridTemplateColumns: `repeat(${width}, 1fr)`, aspectRatio: `${width} / ${grid}` }}
        onKeyDown={onKeyDown}
        onPointerUp={() => {
          painting.current = null;
        }}
        onPointerLeave={() => {
          painting.current = null;
        }}
      >
        <legend className="visually-hidden">{`「${character}」的像素：方向键移动，空格或回车切换`}</legend>
        {cellIds.map((id, index) => {
          const ink = bits[index] === '1';
          return (
            <button
              key={id}
              type="button"
              ref={(element) => {
                cells.current[index] = element;
              }}
              className="pixel-editor__cell"
              data-ink={ink ? '' : undefined}
              tabIndex={index === focus ? 0 : -1}
              aria-pressed={ink}
              aria-label={`第 ${Math.floor(index / width) + 1} 行第 ${(index % width) + 1} 列`}
              onPointerDown={(event) => {
                event.preventDefault();
                (event.target as HTMLElement).releasePointerCapture?.(event.pointerId);
                painting.current = ink ? '0' : '1';
                setFocus(index);
                set(index, painting.current);
              }}
              onPointerEnter={() => {
                if (painting.current !== null) set(index, painting.current);
              }}
              onKeyDown={(event) => {
                if (event.key === ' ' || event.key === 'Enter') {
                  event.preventDefault();
                  set(index, ink ? '0' : '1');
                }
              }}
              onFocus={() => setFocus(index)}
            />
          );
        })}
      </fieldset>
    </div>
  );
}
