import { type ReactElement, useEffect, useState } from 'react';
import { copyText } from '../../lib/copy-text.ts';
import { showToast } from '../../stores/toast.ts';

interface Props {
  text: string;
  /** What is copied, for screen readers: 复制 CSS 代码. */
  label: string;
}

/** A button that copies `text` and says so for two seconds. */
export function CopyButton({ text, label }: Props): ReactElement {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className="btn copy-button"
      aria-label={label}
      onClick={async () => {
        if (await copyText(text)) setCopied(true);
        else showToast('复制失败，请手动选中代码复制', 'warning');
      }}
    >
      <span aria-live="polite">{copied ? '已复制' : '复制'}</span>
    </button>
  );
}
