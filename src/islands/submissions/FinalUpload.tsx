import { type ReactElement, useId, useState } from 'react';
import { RequestError } from '../../api/http.ts';
import { uploadFile, uploadFinalFont } from '../../api/submissions.ts';
import { FINAL_CHANGED_CODE, SUBMISSION_MAX_FONT_MB } from '../../contract/submissions.ts';
import { showToast } from '../../stores/toast.ts';

// The final files of an accepted submission (uploadContributeUltimatelyFont): after the designer
// has signed the current agreement, the fonts to publish go to storage and through the same
// checks as the reviewed ones, and must be the reviewed design. Files that differ are refused with
// the differences; the designer then picks other files, or sends these back to review.

interface Props {
  uid: string;
  signed: boolean;
}

export default function FinalUpload({ uid, signed }: Props): ReactElement {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | undefined>();
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  // Files refused as a changed design, kept so they can be sent back to review without choosing them again.
  const [changed, setChanged] = useState<File | null>(null);
  const id = useId();

  if (!signed) {
    return (
      <div className="sub-final">
        <p>审核已通过。上传终稿之前，请先签署投稿协议（约两分钟），签署后从签约页回到这里。</p>
        <a className="btn btn--primary" href="/user/signing">
          去签约
        </a>
      </div>
    );
  }

  async function send(file: File, rereview: boolean) {
    setBusy(true);
    setError('');
    setChanged(null);
    try {
      setStatus(`正在上传 ${file.name}`);
      const ref = await uploadFile('final', file, setProgress);
      setProgress(undefined);
      setStatus('正在检查终稿：家族名、字重、字符和字形……');
      const detail = await uploadFinalFont(uid, ref, rereview);
      showToast(
        detail.status === 'resubmitted' ? '已重新送审，审核员会收到通知' : '终稿已上传，等待编辑上架',
        'success',
      );
      location.reload();
    } catch (caught) {
      if (caught instanceof RequestError && caught.code === FINAL_CHANGED_CODE) setChanged(file);
      setError(caught instanceof Error ? caught.message : '上传失败，请重试');
      setBusy(false);
    }
  }

  return (
    <div className="sub-final">
      <p>
        你已签约。请上传用于发布的字体文件：单个字体或各字重的 ZIP，最大 {SUBMISSION_MAX_FONT_MB}{' '}
        MB。终稿须是审核通过的这一版设计：家族名和字重相同，每个字重的字符不少于审核时，字形不变；重新导出、转换格式或补充字符都可以。
      </p>
      {error && (
        <p className="uc-notice uc-notice--error" role="alert">
          {error}
        </p>
      )}
      {changed && (
        <div className="sub-actions">
          <button type="button" className="btn" disabled={busy} onClick={() => void send(changed, true)}>
            作为新版本重新送审
          </button>
        </div>
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
          if (file) void send(file, false);
        }}
      />
      <label htmlFor={id} className="btn btn--primary" aria-disabled={busy || undefined}>
        {changed ? '换一份终稿' : '上传终稿'}
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
