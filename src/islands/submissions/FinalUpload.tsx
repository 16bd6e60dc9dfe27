import { type ReactElement, useId, useState } from 'react';
import { uploadFile, uploadFinalFont } from '../../api/submissions.ts';
import { SUBMISSION_MAX_FONT_MB } from '../../contract/submissions.ts';
import { showToast } from '../../stores/toast.ts';

// The final files of an accepted submission (uploadContributeUltimatelyFont): after the designer
// has signed the current agreement, the fonts to publish go to storage and through the same
// checks as the reviewed ones; the page then shows them and waits for an editor to publish.

interface Props {
  uid: string;
  signed: boolean;
}

export default function FinalUpload({ uid, signed }: Props): ReactElement {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const id = useId();

  if (!signed) {
    return (
      <div className="sub-final">
        <p>审核已通过。上传终稿之前，请先签署设计师协议（约两分钟）。</p>
        <a className="btn btn--primary" href="/user/signing">
          去签约
        </a>
      </div>
    );
  }

  async function send(file: File) {
    setBusy(true);
    setError('');
    try {
      setStatus(`正在上传 ${file.name}`);
      const ref = await uploadFile('final', file, setProgress);
      setProgress(undefined);
      setStatus('正在检查终稿……');
      await uploadFinalFont(uid, ref);
      showToast('终稿已上传，等待上架', 'success');
      location.reload();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : '上传失败，请重试');
      setBusy(false);
    }
  }

  return (
    <div className="sub-final">
      <p>
        你已签约。请上传用于发布的最终字体文件：与审核通过的版本为同一家族，单个字体或各字重的 ZIP，最大{' '}
        {SUBMISSION_MAX_FONT_MB} MB。
      </p>
      {error && (
        <p className="uc-notice uc-notice--error" role="alert">
          {error}
        </p>
      )}
      <input
        id={id}
        className="visually-hidden sub-file-input"
        type="file"
        accept=".ttf,.otf,.woff2,.zip"
        disabled={busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void send(file);
        }}
      />
      <label htmlFor={id} className="btn btn--primary" aria-disabled={busy || undefined}>
        上传终稿
      </label>
      {busy && (
        <p className="sub-upload__status" aria-live="polite">
          <progress max={1} value={progress} aria-label="上传进度" />
          <span>{status}</span>
        </p>
      )}
    </div>
  );
}
