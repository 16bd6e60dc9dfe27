import type { ReactElement } from 'react';

interface Props<T extends string | number> {
  /** Names the group; shown above it when `showLegend`, else read only by assistive technology. */
  legend: string;
  showLegend?: boolean;
  /** The radio group's name, unique on the page. */
  name: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
}

/** A choice of one among a few, as radio buttons drawn as a segmented switch. */
export function Segmented<T extends string | number>({
  legend,
  showLegend = false,
  name,
  options,
  value,
  onChange,
}: Props<T>): ReactElement {
  return (
    <fieldset className="segmented">
      <legend className={showLegend ? 'tool-field__label' : 'visually-hidden'}>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="segmented__option">
          <input type="radio" name={name} checked={value === option.value} onChange={() => onChange(option.value)} />
          <span>{option.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
