import { type ReactElement, useState } from 'react';
import { claimSubmission, decideSubmission, publishSubmission } from '../../api/submissions.ts';
import { SUBMISSION_FIELD_NAMES, type SubmissionDetail, type SubmissionFields } from '../../contract/submissions.ts';
import { showToast } from '../../stores/toast.ts';
import { TextArea } from './fields.tsx';

// The reviewer's controls on /editor/submission/{uid}: claim a waiting submission; in review, write
// comments on the items that need work (each field, the font file, each image) and an overall note,
// then send it back, accept or reject it; once the final files are in, publish it to the library.

interface Props {
  detail: SubmissionDetail;
}

export default function ReviewPanel({ detail }: Props): ReactElement {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [comments, setComments] = useState<Record<string, string>>({});

  async function act(work: () => Promise<SubmissionDetail>, said: string) {
    setBusy(true);
    setError('');
    try {
      await work();
      showToast(said, 'success');
      location.reload();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : '操作失败，请重试');
      setBusy(false);
    }
  }

  const items = [
    ...(Object.keys(SUBMISSION_FIELD_NAMES) as Array<keyof SubmissionFields>).map((name) => ({
      item: `field:${name}`,
      label: SUBMISSION_FIELD_NAMES[name],
    })),
    ...detail.fonts.map((file) => ({ item: `font:${file.id}`, label: `字体文件 ${file.name}` })),
    ...detail.images.map((file) => ({ item: `image:${file.id}`, label: `展示图 ${file.name}` })),
  ];
  const written = () =>
    Object.entries(comments)
      .map(([item, body]) => ({ item, body }))
      .filter((c) => c.body.trim());
  const decide = (action: 'request_changes' | 'accept' | 'reject', said: string) =>
    act(() => decideSubmission({ uid: detail.uid, action, note: note.trim(), comments: written() }), said);

  return (
    <section className="sub-review" aria-labelledby="review-title">
      <h2 id="review-title">审核</h2>
      {error && (
        <p className="uc-notice uc-notice--error" role="alert">
          {error}
        </p>
      )}
      {(detail.status === 'submitted' || detail.status === 'resubmitted') && (
        <>
          <p>
            {detail.status === 'resubmitted' ? '设计师已按意见修改并重新提交。' : '这份投稿在等待审核。'}
            开始审核后，设计师会看到你的名字。
          </p>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => act(() => claimSubmission(detail.uid), '已开始审核')}
          >
            开始审核
          </button>
        </>
      )}
      {detail.status === 'reviewing' && (
        <>
          <p className="uc-meta">
            第 {detail.round} 轮审核{detail.reviewer ? `，审核员：${detail.reviewer}` : ''}
            。只需在有问题的项目下写意见，设计师会在对应的位置看到。
          </p>
          <TextArea label="总体意见" rows={3} maxLength={2000} value={note} onChange={setNote} />
          <details className="sub-review__items">
            <summary>逐项意见（{written().length} 条）</summary>
            {items.map(({ item, label }) => (
              <TextArea
                key={item}
                label={label}
                rows={2}
                maxLength={1000}
                value={comments[item] ?? ''}
                onChange={(value) => setComments((all) => ({ ...all, [item]: value }))}
              />
            ))}
          </details>
          <div className="sub-actions">
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => decide('request_changes', '已退回修改')}
            >
              退回修改
            </button>
            <button
              type="button"
              className="btn btn--primary"
              disabled={busy}
              onClick={() => decide('accept', '已通过审核')}
            >
              审核通过
            </button>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={busy}
              onClick={() => decide('reject', '已标记为未通过')}
            >
              不通过
            </button>
          </div>
        </>
      )}
      {detail.status === 'approved' && <p>已通过审核，等待设计师签约并上传终稿。</p>}
      {detail.status === 'finalized' && (
        <>
          <p>终稿已上传并通过检查。上架后，字体会出现在字体库中，署名“{detail.fields.designer}”。</p>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy}
            onClick={() => act(() => publishSubmission(detail.uid), '已上架到字体库')}
          >
            上架到字体库
          </button>
        </>
      )}
      {detail.status === 'published' && detail.publishedGno && (
        <p>
          已上架：<a href={`/font/${detail.publishedGno}`}>查看字体页面</a>
        </p>
      )}
      {detail.status === 'rejected' && <p>这份投稿未通过审核。</p>}
    </section>
  );
}
