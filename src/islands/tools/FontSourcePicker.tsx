import { type ReactElement, useId, useState } from 'react';
import { FontUpload } from './FontUpload.tsx';
import { LibraryFontPicker } from './LibraryFontPicker.tsx';
import type { PickedFont } from './picked-font.ts';

type Mode = 'upload' | 'library';

interface Props {
  /** Which way the tool opens with. */
  initialMode?: Mode;
  onChange: (font: PickedFont | null) => void;
}

const MODES: Array<{ value: Mode; label: string }> = [
  { value: 'upload', label: '上传字体文件' },
  { value: 'library', label: '从字体库选择' },
];

/**
 * The first step of a font tool: upload a file or choose a library font. Switching ways forgets
 * the earlier choice, so the tool never works on a font the visitor no longer sees.
 */
export function FontSourcePicker({ initialMode = 'upload', onChange }: Props): ReactElement {
  const name = useId();
  const [mode, setMode] = useState<Mode>(initialMode);
  return (
    <div className="source-picker">
      <fieldset className="segmented">
        <legend className="visually-hidden">字体来源</legend>
        {MODES.map((option) => (
          <label key={option.value} className="segmented__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={mode === option.value}
              onChange={() => {
                setMode(option.value);
                onChange(null);
              }}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
      {mode === 'upload' ? <FontUpload onChange={onChange} /> : <LibraryFontPicker onChange={onChange} />}
    </div>
  );
}
