import type { ReactElement } from 'react';

/** One choice of a grid of checkboxes: its value, short name and what it is for. */
export interface CheckOption<T extends string> {
  value: T;
  name: string;
  hint: string;
}

interface Props<T extends string> {
  legend: string;
  /**
   * A visible legend sits above the grid, like a field label; a hidden one leaves the step's
   * heading to say what the grid is for.
   */
  showLegend?: boolean;
  /** Narrower cards, for a grid of a few short names. */
  compact?: boolean;
  options: ReadonlyArray<CheckOption<T>>;
  checked: ReadonlySet<T>;
  /** Takes an update of the chosen set, so a state setter can be passed as it is. */
  onChange: (update: (current: Set<T>) => Set<T>) => void;
}

/** Adds or removes one value of a set held in state. */
function toggled<T>(set: Set<T>, value: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
}

/** A grid of checkboxes, each a card with its name and a hint: any number may be chosen. */
export function OptionChecks<T extends string>({
  legend,
  showLegend = false,
  compact = false,
  options,
  checked,
  onChange,
}: Props<T>): ReactElement {
  const boxes = options.map((option) => (
    <label key={option.value} className="format-option">
      <input
        type="checkbox"
        checked={checked.has(option.value)}
        onChange={(event) => {
          const on = event.target.checked;
          onChange((set) => toggled(set, option.value, on));
        }}
      />
      <span className="format-option__name">{option.name}</span>
      <span className="format-option__hint">{option.hint}</span>
    </label>
  ));
  const grid = compact ? 'format-options format-options--compact' : 'format-options';
  if (showLegend) {
    return (
      <fieldset className="tool-fieldset">
        <legend className="tool-field__label">{legend}</legend>
        <div className={grid}>{boxes}</div>
      </fieldset>
    );
  }
  return (
    <fieldset className={grid}>
      <legend className="visually-hidden">{legend}</legend>
      {boxes}
    </fieldset>
  );
}
