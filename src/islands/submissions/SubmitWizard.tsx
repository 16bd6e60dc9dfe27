import { type FormEvent, type ReactElement, type ReactNode, useRef, useState } from 'react';
import { RequestError } from '../../api/http.ts';
import {
  reviseSubmission,
  type SubmissionChanges,
  saveSubmission,
  submitSubmission,
  uploadFile,
} from '../../api/submissions.ts';
import { FONT_CATEGORIES, FONT_SCRIPTS } from '../../contract/fonts.ts';
import {
  commentItemName,
  DESIGN_METHODS,
  DESIGN_ORIGINS,
  DESIGN_RULES,
  DESIGN_USAGES,
  type DesignModel,
  designProblem,
  fieldsProblem,
  isRequired,
  SUBMISSION_FIELD_RULES as RULES,
  SUBMISSION_LICENSES,
  SUBMISSION_MAX_FONT_MB,
  SUBMISSION_MAX_IMAGE_MB,
  SUBMISSION_MAX_IMAGES,
  type SubmissionDetail,
  type SubmissionFields,
} from '../../contract/submissions.ts';
import { showToast } from '../../stores/toast.ts';
import { FontFileReport, ImageList } from './FileReport.tsx';
import { Choice, Input, Select, TextArea, Uploader } from './fields.tsx';

// The submit form (/user/submit): five steps, each saved as a draft when the designer moves on
// (saveSubmission), so closing the page loses nothing and queryUserLastContributeFont resumes it.
// A submission sent back for changes opens here too: the steps then show the reviewers' comments
// beside what they are about, saves go through updateContributeById, and the last step resubmits.
// Files go straight from the browser to storage with a presigned PUT, then the server checks them.
// What each field needs, its label and its 必填 mark come from the contract the server checks with.

const STEPS = ['字体信息', '字体文件', '展示图', '设计说明', '确认提交'] as const;
type Step = 0 | 1 | 2 | 3 | 4;

const EMPTY_DESIGN: DesignModel = { origin: 'original', baseFont: '', method: 'digital', usage: 'both', notes: '' };

interface Props {
  initial: SubmissionDetail | null;
}

type Draft = Omit<SubmissionFields, 'category' | 'script' | 'license'> & {
  category: string;
  script: string;
  license: string;
};

function draftOf(detail: SubmissionDetail | null): Draft {
  const fields = detail?.fields;
  return {
    fontName: fields?.fontName ?? '',
    nameEn: fields?.nameEn ?? '',
    category: fields?.category ?? '',
    script: fields?.script ?? '',
    designer: fields?.designer ?? '',
    description: fields?.description ?? '',
    license: fields?.license ?? '',
    design: fields?.design ?? EMPTY_DESIGN,
  };
}

/** The reviewers' comments of the latest round on the given items, shown where they apply. */
function Comments({
  detail,
  items,
}: {
  detail: SubmissionDetail | null;
  items: (item: string) => boolean;
}): ReactElement | null {
  if (!detail) return null;
  const files = [...detail.fonts, ...detail.images];
  const latest = detail.comments.filter((c) => c.round === detail.round && items(c.item));
  if (latest.length === 0 || detail.status !== 'needs_revision') return null;
  return (
    <ul className="sub-comments" aria-label="审核意见">
      {latest.map((comment) => (
        <li key={comment.id}>
          <strong>{commentItemName(comment.item, files)}</strong>
          {comment.body}
        </li>
      ))}
    </ul>
  );
}

/** The submit form's steps. */
export default function SubmitWizard({ initial }: Props): ReactElement {
  const [detail, setDetail] = useState(initial);
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [step, setStep] = useState<Step>(0);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [status, setStatus] = useState('');
  const [note, setNote] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const revising = detail?.status === 'needs_revision';

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));
  const setDesign = <K extends keyof DesignModel>(key: K, value: DesignModel[K]) =>
    setDraft((current) => ({ ...current, design: { ...current.design, [key]: value } }));

  const go = (next: Step) => {
    setStep(next);
    setError('');
    requestAnimationFrame(() => heading.current?.focus());
  };

  async function save(changes: SubmissionChanges): Promise<SubmissionDetail | undefined> {
    setError('');
    setBusy(true);
    try {
      const saved = detail
        ? revising
          ? await reviseSubmission({ ...changes, uid: detail.uid })
          : await saveSubmission({ ...changes, uid: detail.uid })
        : await saveSubmission(changes);
      setDetail(saved);
      if (!detail) history.replaceState(null, '', `/user/submit?uid=${saved.uid}`);
      return saved;
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : '保存失败，请重试');
      return undefined;
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  }

  // The first step's fields as the server takes them: a blank one is not filled in yet.
  const infoFields = () => ({
    fontName: draft.fontName.trim(),
    nameEn: draft.nameEn.trim(),
    category: draft.category as SubmissionFields['category'] | '',
    script: draft.script as SubmissionFields['script'] | '',
    designer: draft.designer.trim(),
    description: draft.description.trim(),
    license: draft.license as SubmissionFields['license'] | '',
  });
  const infoProblem = () => fieldsProblem(infoFields()) ?? '';

  async function saveStep(event: FormEvent, next: Step, changes: () => SubmissionChanges | string) {
    event.preventDefault();
    const made = changes();
    if (typeof made === 'string') {
      setError(made);
      return;
    }
    if (await save(made)) go(next);
  }

  async function uploadAndSave(kind: 'font' | 'image', files: File[]) {
    if (!detail && !draft.fontName.trim()) {
      setError('请先在第一步填写字体中文名称');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const refs = [];
      for (const [i, file] of files.entries()) {
        setStatus(`正在上传 ${file.name}${files.length > 1 ? `（${i + 1}/${files.length}）` : ''}`);
        setProgress(0);
        refs.push(await uploadFile(kind, file, (fraction) => setProgress(fraction)));
      }
      setProgress(undefined);
      setStatus(kind === 'font' ? '正在检查字体：格式、安全检查、字重和字符覆盖……' : '正在处理图片……');
      const saved = await save(
        kind === 'font'
          ? { font: refs[0] as NonNullable<SubmissionChanges['font']>, ...(detail ? {} : { fields: infoFields() }) }
          : { images: refs, ...(detail ? {} : { fields: infoFields() }) },
      );
      // A font named in Latin gives the English name when none was written.
      if (saved && !draft.nameEn.trim() && saved.fields.nameEn) set('nameEn', saved.fields.nameEn);
      if (saved) showToast(kind === 'font' ? '字体文件已通过检查' : '展示图已上传', 'success');
    } catch (caught) {
      setError(caught instanceof RequestError || caught instanceof Error ? caught.message : '上传失败，请重试');
      setBusy(false);
      setProgress(undefined);
    }
  }

  async function send() {
    if (!detail) return;
    setBusy(true);
    setError('');
    try {
      const sent = await submitSubmission(detail.uid, note.trim());
      showToast(sent.status === 'resubmitted' ? '已重新提交，审核员会尽快查看' : '已提交审核', 'success');
      location.assign(`/user/submission/${sent.uid}`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : '提交失败，请重试');
      setBusy(false);
    }
  }

  const font = detail?.fonts[0];
  const images = detail?.images ?? [];
  const missing = detail?.missing ?? ['英文名称', '字体文件', '至少一张展示图'];
  const problems = detail?.problems ?? [];

  const actions = (back: Step | null, primary: ReactNode) => (
    <div className="sub-actions">
      {back !== null && (
        <button type="button" className="btn" onClick={() => go(back)} disabled={busy}>
          上一步
        </button>
      )}
      {primary}
    </div>
  );
  const fieldItems = (names: string[]) => (item: string) => names.some((name) => item === `field:${name}`);

  return (
    <div className="sub-wizard">
      <nav aria-label="填写步骤">
        <ol className="sub-steps">
          {STEPS.map((label, index) => (
            <li key={label}>
              <button
                type="button"
                aria-current={index === step ? 'step' : undefined}
                disabled={busy || (!detail && index > 0)}
                onClick={() => go(index as Step)}
              >
                <span aria-hidden="true">{index + 1}</span>
                {label}
              </button>
            </li>
          ))}
        </ol>
      </nav>

      {revising && (
        <p className="uc-notice" role="status">
          审核员退回了这份投稿，请按下面各步骤中的意见修改，最后一步重新提交。
        </p>
      )}
      {revising && <Comments detail={detail} items={(item) => item === 'general'} />}

      <section className="sub-panel" aria-labelledby="sub-step-title">
        <h2 id="sub-step-title" ref={heading} tabIndex={-1}>
          {step + 1}. {STEPS[step]}
        </h2>
        {error && (
          <p className="uc-notice uc-notice--error" role="alert">
            {error}
          </p>
        )}

        {step === 0 && (
          <form noValidate onSubmit={(event) => saveStep(event, 1, () => infoProblem() || { fields: infoFields() })}>
            <p className="sub-form-note">
              标有（必填）的项目在提交审核前都要填写；草稿可以先只填中文名称，随时回来补充。
            </p>
            <Comments
              detail={detail}
              items={fieldItems(['fontName', 'nameEn', 'category', 'script', 'designer', 'description', 'license'])}
            />
            <div className="sub-grid">
              <Input
                label={RULES.fontName.label}
                required={isRequired(RULES.fontName)}
                value={draft.fontName}
                maxLength={RULES.fontName.max}
                onChange={(v) => set('fontName', v)}
                hint="字体的正式中文名，不得与已收录字体重名"
              />
              <Input
                label={RULES.nameEn.label}
                required={isRequired(RULES.nameEn)}
                value={draft.nameEn}
                maxLength={RULES.nameEn.max}
                lang="en"
                onChange={(v) => set('nameEn', v)}
                hint="须与字体文件里的英文家族名一致，如 Mo Xiang Hei"
              />
              <Select
                label={RULES.category.label}
                required={isRequired(RULES.category)}
                value={draft.category}
                options={FONT_CATEGORIES}
                onChange={(v) => set('category', v)}
              />
              <Select
                label={RULES.script.label}
                required={isRequired(RULES.script)}
                value={draft.script}
                options={FONT_SCRIPTS}
                onChange={(v) => set('script', v)}
              />
              <Input
                label={RULES.designer.label}
                required={isRequired(RULES.designer)}
                value={draft.designer}
                maxLength={RULES.designer.max}
                onChange={(v) => set('designer', v)}
                hint="个人或团队名称，上架后显示在字体页面"
              />
            </div>
            <TextArea
              label={RULES.description.label}
              required={isRequired(RULES.description)}
              value={draft.description}
              maxLength={RULES.description.max}
              onChange={(v) => set('description', v)}
              hint={`设计思路、风格特点和适用场合，至少 ${RULES.description.min} 个字，会显示在字体页面`}
            />
            <Choice
              legend={RULES.license.label}
              required={isRequired(RULES.license)}
              value={draft.license}
              options={SUBMISSION_LICENSES}
              onChange={(v) => set('license', v)}
            />
            {actions(
              null,
              <button type="submit" className="btn btn--primary" disabled={busy}>
                {busy ? '正在保存…' : '保存并继续'}
              </button>,
            )}
          </form>
        )}

        {step === 1 && (
          <div>
            <Comments detail={detail} items={(item) => item.startsWith('font:')} />
            <Uploader
              label={font ? '换一个字体文件' : '选择字体文件'}
              accept=".ttf,.otf,.woff2,.zip,font/ttf,font/otf,font/woff2,application/zip"
              hint={`TTF、OTF、WOFF2，或各字重打包的 ZIP（可附 OFL.txt 等许可证文件），最大 ${SUBMISSION_MAX_FONT_MB} MB。`}
              busy={busy}
              progress={progress}
              status={status}
              onFiles={(files) => uploadAndSave('font', files.slice(0, 1))}
            />
            {font ? <FontFileReport file={font} /> : <p className="uc-empty">还没有上传字体文件。</p>}
            {actions(
              0,
              <button type="button" className="btn btn--primary" disabled={busy || !font} onClick={() => go(2)}>
                下一步
              </button>,
            )}
          </div>
        )}

        {step === 2 && (
          <div>
            <Uploader
              label="添加展示图"
              accept="image/png,image/jpeg,image/webp"
              hint={`PNG、JPEG 或 WebP，每张不超过 ${SUBMISSION_MAX_IMAGE_MB} MB，最多 ${SUBMISSION_MAX_IMAGES} 张。展示图会用在字体页面和审核中。`}
              busy={busy || images.length >= SUBMISSION_MAX_IMAGES}
              progress={progress}
              status={status}
              multiple
              onFiles={(files) => uploadAndSave('image', files.slice(0, SUBMISSION_MAX_IMAGES - images.length))}
            />
            <Comments detail={detail} items={(item) => item.startsWith('image:')} />
            {images.length > 0 ? (
              <ImageList images={images} onDrop={(id) => void save({ dropFiles: [id] })} />
            ) : (
              <p className="uc-empty">还没有展示图。</p>
            )}
            {actions(
              1,
              <button
                type="button"
                className="btn btn--primary"
                disabled={busy || images.length === 0}
                onClick={() => go(3)}
              >
                下一步
              </button>,
            )}
          </div>
        )}

        {step === 3 && (
          <form
            noValidate
            onSubmit={(event) =>
              saveStep(event, 4, () => designProblem(draft.design) ?? { fields: { design: draft.design } })
            }
          >
            <Comments detail={detail} items={fieldItems(['design'])} />
            <Choice
              legend={DESIGN_RULES.origin.label}
              required
              value={draft.design.origin}
              options={DESIGN_ORIGINS}
              onChange={(v) => setDesign('origin', v as DesignModel['origin'])}
            />
            {draft.design.origin === 'derived' && (
              <Input
                label={DESIGN_RULES.baseFont.label}
                required={isRequired(DESIGN_RULES.baseFont)}
                value={draft.design.baseFont}
                maxLength={DESIGN_RULES.baseFont.max}
                onChange={(v) => setDesign('baseFont', v)}
                hint="如：思源黑体（SIL OFL 1.1）"
              />
            )}
            <Choice
              legend={DESIGN_RULES.method.label}
              required
              value={draft.design.method}
              options={DESIGN_METHODS}
              onChange={(v) => setDesign('method', v as DesignModel['method'])}
            />
            <Choice
              legend={DESIGN_RULES.usage.label}
              required
              value={draft.design.usage}
              options={DESIGN_USAGES}
              onChange={(v) => setDesign('usage', v as DesignModel['usage'])}
            />
            <TextArea
              label={DESIGN_RULES.notes.label}
              required={isRequired(DESIGN_RULES.notes)}
              value={draft.design.notes}
              maxLength={DESIGN_RULES.notes.max}
              onChange={(v) => setDesign('notes', v)}
              hint="灵感、历时、工具、特别处理过的字形，写给审核员"
            />
            {actions(
              2,
              <button type="submit" className="btn btn--primary" disabled={busy}>
                {busy ? '正在保存…' : '保存并继续'}
              </button>,
            )}
          </form>
        )}

        {step === 4 && (
          <div>
            <dl className="sub-summary">
              <dt>字体</dt>
              <dd>
                {draft.fontName}
                {draft.nameEn && <span lang="en"> · {draft.nameEn}</span>}
              </dd>
              <dt>分类</dt>
              <dd>{[draft.category, draft.script].filter(Boolean).join(' · ') || '未填写'}</dd>
              <dt>署名</dt>
              <dd>{draft.designer || '未填写'}</dd>
              <dt>授权</dt>
              <dd>{SUBMISSION_LICENSES[draft.license as keyof typeof SUBMISSION_LICENSES] ?? '未选择'}</dd>
              <dt>文件</dt>
              <dd>{font ? `${font.name}（${font.faces.length} 个字重）` : '未上传'}</dd>
              <dt>展示图</dt>
              <dd>{images.length} 张</dd>
            </dl>
            {missing.length > 0 && (
              <p className="uc-notice uc-notice--error">还缺少：{missing.join('、')}。请回到对应步骤补充。</p>
            )}
            {problems.map((problem) => (
              <p key={problem} className="uc-notice uc-notice--error">
                {problem}。
              </p>
            ))}
            {missing.length === 0 && problems.length === 0 && (
              <p className="uc-notice uc-notice--success">
                信息完整，可以提交。提交后在审核结束前不能再修改；审核通过、上架之前可以随时撤回。
              </p>
            )}
            {revising && (
              <TextArea
                label="给审核员的说明（可选）"
                value={note}
                maxLength={500}
                rows={3}
                onChange={setNote}
                hint="说明这次改了什么"
              />
            )}
            {actions(
              3,
              <button
                type="button"
                className="btn btn--primary"
                disabled={busy || missing.length > 0 || problems.length > 0}
                onClick={send}
              >
                {busy ? '正在提交…' : revising ? '重新提交审核' : '提交审核'}
              </button>,
            )}
          </div>
        )}
      </section>
    </div>
  );
}
