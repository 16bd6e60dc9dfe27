import { type InputHTMLAttributes, type ReactElement, type ReactNode, useEffect, useId, useState } from 'react';

/** Props of {@link Field}: an input with its label and, when given, its error. */
export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null | undefined;
  hint?: string;
  /** Something to show at the end of the input (a button). */
  addon?: ReactNode;
}

/** A labelled text input; the error is tied to it for screen readers (SPEC §4: idle, error, success). */
export function Field({ label, value, onChange, error, hint, addon, ...input }: FieldProps): ReactElement {
  const id = useId();
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div className="account-field" data-state={error ? 'error' : value ? 'success' : 'idle'}>
      <label className="account-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="account-field__control">
        <input
          {...input}
          id={id}
          className="input account-field__input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={described || undefined}
        />
        {addon}
      </div>
      {hint && !error && (
        <p id={`${id}-hint`} className="account-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="account-field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'addon'>): ReactElement {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? 'text' : 'password'}
      maxLength={64}
      addon={
        <button
          type="button"
          className="account-field__addon"
          aria-pressed={visible}
          aria-label={visible ? '隐藏密码' : '显示密码'}
          onClick={() => setVisible(!visible)}
        >
          {visible ? '隐藏' : '显示'}
        </button>
      }
    />
  );
}

/** Props of {@link CodeField}. */
export interface CodeFieldProps {
  value: string;
  onChange(value: string): void;
  /** Sends a code; resolves with the cooldown in seconds, or rejects when nothing was sent. */
  onSend(): Promise<number>;
  error?: string | null | undefined;
  label?: string;
}

/** A six-digit code input with the button that sends the code and counts down the resend cooldown. */
export function CodeField({ value, onChange, onSend, error, label = '验证码' }: CodeFieldProps): ReactElement {
  const [wait, setWait] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setWait(wait - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [wait]);

  return (
    <Field
      label={label}
      value={value}
      onChange={(next) => onChange(next.replace(/\D/g, '').slice(0, 6))}
      error={error}
      inputMode="numeric"
      autoComplete="one-time-code"
      placeholder="6 位数字"
      maxLength={6}
      addon={
        <button
          type="button"
          className="account-field__addon account-field__send"
          disabled={sending || wait > 0}
          onClick={async () => {
            setSending(true);
            try {
              setWait(await onSend());
            } catch {
              // The reason was shown already (toast or field error).
            } finally {
              setSending(false);
            }
          }}
        >
          {wait > 0 ? `${wait} 秒后重发` : sending ? '发送中…' : '获取验证码'}
        </button>
      }
    />
  );
}

/** Props of {@link Tabs}. */
export interface TabsProps<T extends string> {
  label: string;
  tabs: { id: T; label: string }[];
  current: T;
  onChange(id: T): void;
}

/** A row of tabs with arrow-key movement (WAI-ARIA tabs pattern, automatic activation). */
export function Tabs<T extends string>({ label, tabs, current, onChange }: TabsProps<T>): ReactElement {
  return (
    <div className="account-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          className="account-tabs__tab"
          aria-selected={tab.id === current}
          tabIndex={tab.id === current ? 0 : -1}
          onClick={() => onChange(tab.id)}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
            if (!step) return;
            event.preventDefault();
            const next = tabs[(index + step + tabs.length) % tabs.length];
            if (!next) return;
            onChange(next.id);
            const row = event.currentTarget.parentElement;
            window.requestAnimationFrame(() =>
              row?.querySelector<HTMLButtonElement>('[role="tab"][aria-selected="true"]')?.focus(),
            );
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
