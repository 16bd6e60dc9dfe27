import { type FormEvent, type ReactElement, useId, useRef, useState } from 'react';
import { deleteDraft, withdrawSubmission } from '../../api/submissions.ts';
import { showToast } from '../../stores/toast.ts';

// A designer changing their mind about a submission: deleting a draft (with its files) or
// withdrawing a submission from review before it is published. Each asks first in a modal dialog
// (the native <dialog>: focus stays inside, Escape closes it), since neither can be undone.

interface Props {
  uid: string;
  fontName: string;
  /** 'delete' for a draft, 'withdraw' for a submission in review or accepted. */
  action: 'delete' | 'withdraw';
  /** Where to go afterwards. */
  next: string;
}

const WORDS = {
  delete: {
    button: '删除草稿',
    title: '删除这份草稿？',
    lead: '草稿的信息、上传的字体文件和展示图会一起删除，不能恢复。',
    confirm: '删除',
    busy: '正在删除…',
    done: '草稿已删除',
  },
  withdraw: {
    button: '撤回投稿',
    title: '撤回这份投稿？',
    lead: '撤回后审核停止，审核员会收到通知；投稿的文件和审核记录按投稿协议第二条保留备查。撤回后不能恢复，如需再投请新建投稿。',
    confirm: '撤回投稿',
    busy: '正在撤回…',
    done: '投稿已撤回',
  },
} as const;

export default function SubmissionActions({ uid, fontName, action, next }: Props): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const id = useId();
  const words = WORDS[action];

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      if (action === 'delete') await deleteDraft(uid);
      else await withdrawSubmission(uid, note.trim());
      showToast(words.done, 'success');
      location.assign(next);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : '操作没有成功，请重试');
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="btn sub-danger-quiet" onClick={() => dialog.current?.showModal()}>
        {words.button}
      </button>
      <dialog ref={dialog} className="account-modal" aria-labelledby={`${id}-title`} aria-describedby={`${id}-lead`}>
        <form className="sub-dialog__panel" onSubmit={confirm}>
          <h2 id={`${id}-title`}>{words.title}</h2>
          <p id={`${id}-lead`}>
            《{fontName}》：{words.lead}
          </p>
          {action === 'withdraw' && (
            <div className="sub-field">
              <label htmlFor={`${id}-note`}>撤回原因（可选，审核员会看到）</label>
              <textarea
                id={`${id}-note`}
                className="input"
                rows={3}
                maxLength={500}
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            </div>
          )}
          {error && (
            <p className="uc-notice uc-notice--error" role="alert">
              {error}
            </p>
          )}
          <div className="sub-actions">
            <button type="button" className="btn" disabled={busy} onClick={() => dialog.current?.close()}>
              取消
            </button>
            <button type="submit" className="btn sub-danger" disabled={busy}>
              {busy ? words.busy : words.confirm}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
