import { type ReactElement, useCallback, useRef, useState } from 'react';
import SliderCaptcha from './SliderCaptcha.tsx';

/** Thrown when the person closes the puzzle instead of solving it. */
export class CaptchaCancelled extends Error {
  override name = 'CaptchaCancelled';
}

/**
 * Puts the slider puzzle in front of an action: `verify()` opens it and resolves with the
 * verification once solved (or rejects with CaptchaCancelled); render `element` once. A login
 * names its account, for which the server may ask for more than one puzzle.
 */
export function useCaptcha(): { verify(account?: string): Promise<string>; element: ReactElement } {
  const [open, setOpen] = useState(false);
  const [account, setAccount] = useState<string | undefined>();
  const pending = useRef<{ resolve(value: string): void; reject(error: Error): void } | null>(null);

  const verify = useCallback(
    (forAccount?: string) =>
      new Promise<string>((resolve, reject) => {
        pending.current?.reject(new CaptchaCancelled('replaced'));
        pending.current = { resolve, reject };
        setAccount(forAccount);
        setOpen(true);
      }),
    [],
  );

  const element = (
    <SliderCaptcha
      open={open}
      account={account}
      onPass={(verification) => {
        setOpen(false);
        pending.current?.resolve(verification);
        pending.current = null;
      }}
      onCancel={() => {
        setOpen(false);
        pending.current?.reject(new CaptchaCancelled('cancelled'));
        pending.current = null;
      }}
    />
  );
  return { verify, element };
}
