import { type ReactElement, useId } from 'react';

// The form parts of the submission pages: labelled inputs, text areas, selects and radio groups,
// and a file picker that uploads at once with native progress. Hints are tied to their control;
// a field the contract requires (src/contract/submission-fields.ts) is marked 必填 and aria-required.

/** The 必填 mark after a label. */
function Required({ shown }: { shown: boolean | undefined }): ReactElement | null {
  return shown ? <span className="sub-field__required">（必填）</span> : null;
}

export function TextArea(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string;
  maxLength: number;
  rows?: number;
  required?: boolean;
}): ReactElement {
  const id = useId();
  return (
    <div className="sub-field">
      <label htmlFor={id}>
        {props.label}
        <Required shown={props.required} />
      </label>
      <textarea
        id={id}
        className="input"
        rows={props.rows ?? 5}
        maxLength={props.maxLength}
        aria-required={props.required || undefined}
        value={props.value}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="sub-field__hint">
          {props.hint}（{props.value.length}/{props.maxLength}）
        </p>
      )}
    </div>
  );
}

export function Input(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  hint?: string;
  maxLength: number;
  required?: boolean;
  lang?: string;
}): ReactElement {
  const id = useId();
  return (
    <div className="sub-field">
      <label htmlFor={id}>
        {props.label}
        <Required shown={props.required} />
      </label>
      <input
        id={id}
        className="input"
        aria-required={props.required || undefined}
        value={props.value}
        maxLength={props.maxLength}
        lang={props.lang}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="sub-field__hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function Choice(props: {
  legend: string;
  value: string;
  options: Record<string, string> | readonly string[];
  onChange(value: string): void;
  required?: boolean;
}): ReactElement {
  const name = useId();
  const entries = Array.isArray(props.options)
    ? props.options.map((option) => [option, option] as const)
    : Object.entries(props.options);
  return (
    <fieldset className="sub-choice">
      <legend>
        {props.legend}
        <Required shown={props.required} />
      </legend>
      {entries.map(([value, label]) => (
        <label key={value}>
          <input
            type="radio"
            name={name}
            value={value}
            checked={props.value === value}
            required={props.required}
            onChange={() => props.onChange(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** A file picker that uploads at once, with native progress. */
export function Uploader(props: {
  label: string;
  accept: string;
  hint: string;
  busy: boolean;
  progress: number | undefined;
  status: string;
  multiple?: boolean;
  onFiles(files: File[]): void;
}): ReactElement {
  const id = useId();
  return (
    <div className="sub-upload">
      <input
        id={id}
        className="visually-hidden sub-file-input"
        type="file"
        accept={props.accept}
        multiple={props.multiple}
        disabled={props.busy}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) props.onFiles(files);
        }}
      />
      <label htmlFor={id} className="btn btn--primary" aria-disabled={props.busy || undefined}>
        {props.label}
      </label>
      <p id={`${id}-hint`} className="sub-field__hint">
        {props.hint}
      </p>
      {props.busy && (
        <p className="sub-upload__status" aria-live="polite">
          <progress max={1} value={props.progress} aria-label="上传进度" />
          <span>{props.status}</span>
        </p>
      )}
    </div>
  );
}

/** A labelled select with an empty first choice. */
export function Select(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange(value: string): void;
  required?: boolean;
}): ReactElement {
  const id = useId();
  return (
    <div className="sub-field">
      <label htmlFor={id}>
        {props.label}
        <Required shown={props.required} />
      </label>
      <select
        id={id}
        className="input"
        aria-required={props.required || undefined}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      >
        <option value="">请选择</option>
        {props.options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    </div>
  );
}
