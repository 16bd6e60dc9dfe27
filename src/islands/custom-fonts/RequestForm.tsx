import { type FormEvent, type ReactElement, type ReactNode, useEffect, useId, useState } from 'react';
import { sendCustomFontRequest, uploadAttachment } from '../../api/custom-fonts.ts';
import { RequestError } from '../../api/http.ts';
import type { UploadRef } from '../../api/submissions.ts';
import {
  CUSTOM_FONT_BUDGETS,
  CUSTOM_FONT_CHARSETS,
  CUSTOM_FONT_KINDS,
  CUSTOM_FONT_MAX_FILE_MB,
  CUSTOM_FONT_MAX_FILES,
  type CustomFontBudget,
  type CustomFontCharset,
  type CustomFontKind,
} from '../../contract/custom-fonts.ts';
import { takeEarlyInput } from '../../lib/early-clicks.ts';
import { validateEmail, validateMobile } from '../../lib/validate.ts';
import { showToast } from '../../stores/toast.ts';
import { Field } from '../account/fields.tsx';

/** The text fields, by the name the server takes; each keeps what was typed before hydration. */
const TEXT_FIELDS = [
  'organisation',
  'contactName',
  'phone',
  'email',
  'kind',
  'charset',
  'customCount',
  'weights',
  'deadline',
  'budget',
  'description',
] as const;
type Name = (typeof TEXT_FIELDS)[number];
type Values = Record<Name, string>;
type Errors = Partial<Record<Name | 'attachments', string>>;

/** An attachment on its way or in storage. */
interface Attachment {
  id: string;
  name: string;
  size: number;
  progress: number;
  ref?: UploadRef;
  error?: string;
}

const ACCEPT = '.png,.jpg,.jpeg,.webp,.tif,.tiff,.pdf,.zip,.ttf,.otf,.woff,.woff2';

/** The form's checks, the same as the server's, so most mistakes are caught before sending. */
export function checkRequest(values: Values, today: string): Errors {
  const errors: Errors = {};
  const organisation = values.organisation.trim();
  if (organisation.length < 2) errors.organisation = '请填写机构或公司名称（个人请填写姓名）';
  else if (organisation.length > 60) errors.organisation = '机构名称最多 60 个字';
  if (!values.contactName.trim()) errors.contactName = '请填写联系人';
  else if (values.contactName.trim().length > 30) errors.contactName = '联系人最多 30 个字';
  const phone = values.phone.trim();
  const email = values.email.trim();
  if (!phone && !email) errors.phone = '手机号和邮箱至少填写一项，方便我们联系你';
  const badPhone = validateMobile(phone);
  if (badPhone && !errors.phone) errors.phone = badPhone;
  const badEmail = validateEmail(email);
  if (badEmail) errors.email = badEmail;
  if (!values.kind) errors.kind = '请选择定制类型';
  if (!values.charset) errors.charset = '请选择字符集';
  const count = Number(values.customCount);
  if (values.charset === 'custom' && !(Number.isInteger(count) && count >= 1 && count <= 100_000)) {
    errors.customCount = '请填写需要的字数（1–100000）';
  }
  const weights = Number(values.weights);
  if (!(Number.isInteger(weights) && weights >= 1 && weights <= 12)) errors.weights = '字重数量为 1–12';
  if (values.deadline && values.deadline <= today) errors.deadline = '期望交付日期应晚于今天';
  if (!values.budget) errors.budget = '请选择预算范围';
  const description = values.description.trim();
  if (description.length < 10) errors.description = '请简单描述用途和要求（至少 10 个字）';
  else if (description.length > 2000) errors.description = '需求描述最多 2000 个字';
  return errors;
}

/** Which field a server message is about, by the field name it ends its label with: "手机号（phone）：…". */
function fieldOf(message: string): Name | undefined {
  const match = /（(\w+)）：/.exec(message);
  return TEXT_FIELDS.find((name) => name === match?.[1]);
}

function Choice(props: {
  label: string;
  name: Name;
  value: string;
  options: Record<string, string>;
  onChange(value: string): void;
  error?: string | undefined;
  placeholder: string;
}): ReactElement {
  const id = useId();
  return (
    <div className="account-field" data-state={props.error ? 'error' : 'idle'}>
      <label className="account-field__label" htmlFor={id}>
        {props.label}
      </label>
      <select
        id={id}
        name={props.name}
        className="input"
        data-early-input={`dingzhi-${props.name}`}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        required
      >
        <option value="">{props.placeholder}</option>
        {Object.entries(props.options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {props.error && (
        <p id={`${id}-error`} className="account-field__error">
          {props.error}
        </p>
      )}
    </div>
  );
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }): ReactElement {
  return (
    <fieldset className="dz-form__group">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

/**
 * The request form of the font-creation service: who asks and how to reach them, what is to be
 * made, when and for how much, a description and attachments. Attachments go to storage as soon as
 * they are chosen; sending names them, and the server checks every one by its bytes. A sent
 * request opens its page in the user centre.
 */
export default function RequestForm({ defaults, today }: { defaults: Partial<Values>; today: string }): ReactElement {
  const [values, setValues] = useState<Values>({
    organisation: '',
    contactName: '',
    phone: '',
    email: '',
    kind: '',
    charset: '',
    customCount: '',
    weights: '1',
    deadline: '',
    budget: '',
    description: '',
    ...defaults,
  });
  const [errors, setErrors] = useState<Errors>({});
  const [files, setFiles] = useState<Attachment[]>([]);
  const [sending, setSending] = useState(false);
  const descriptionId = useId();
  const filesId = useId();

  // What was typed before this script arrived is kept (the inline listener of src/lib/inline-scripts.ts).
  useEffect(() => {
    const typed: Partial<Values> = {};
    for (const name of TEXT_FIELDS) {
      const value = takeEarlyInput(`dingzhi-${name}`);
      if (value !== undefined) typed[name] = value;
    }
    if (Object.keys(typed).length > 0) setValues((current) => ({ ...current, ...typed }));
  }, []);

  const set = (name: Name) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const patch = (id: string, change: Partial<Attachment>) =>
    setFiles((current) => current.map((file) => (file.id === id ? { ...file, ...change } : file)));

  function addFiles(list: FileList | null): void {
    const chosen = [...(list ?? [])];
    const room = CUSTOM_FONT_MAX_FILES - files.length;
    if (chosen.length > room) {
      setErrors((current) => ({ ...current, attachments: `附件最多 ${CUSTOM_FONT_MAX_FILES} 个` }));
    } else {
      setErrors(({ attachments: _, ...rest }) => rest);
    }
    for (const file of chosen.slice(0, Math.max(0, room))) {
      const id = `${Date.now()}-${Math.random()}`;
      const tooBig = file.size > CUSTOM_FONT_MAX_FILE_MB * 1024 * 1024;
      setFiles((current) => [
        ...current,
        {
          id,
          name: file.name,
          size: file.size,
          progress: 0,
          ...(tooBig ? { error: `超过 ${CUSTOM_FONT_MAX_FILE_MB} MB，请压缩后再上传` } : {}),
        },
      ]);
      if (tooBig) continue;
      uploadAttachment(file, (progress) => patch(id, { progress }))
        .then((ref) => patch(id, { ref, progress: 1 }))
        .catch((error: unknown) => patch(id, { error: error instanceof Error ? error.message : '上传失败，请重试' }));
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const found = checkRequest(values, today);
    if (files.some((file) => !file.ref && !file.error)) found.attachments = '附件还在上传，请稍候再提交';
    else if (files.some((file) => file.error)) found.attachments = '请先移除上传失败的附件';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('.dz-form [aria-invalid="true"], .dz-form [data-error]')?.focus(),
      );
      return;
    }
    setSending(true);
    try {
      const detail = await sendCustomFontRequest({
        organisation: values.organisation.trim(),
        contactName: values.contactName.trim(),
        phone: values.phone.trim(),
        email: values.email.trim(),
        kind: values.kind as CustomFontKind,
        charset: values.charset as CustomFontCharset,
        customCount: values.charset === 'custom' ? Number(values.customCount) : null,
        weights: Number(values.weights),
        deadline: values.deadline,
        budget: values.budget as CustomFontBudget,
        description: values.description.trim(),
        attachments: files.flatMap((file) => (file.ref ? [file.ref] : [])),
      });
      showToast('需求已提交，我们会在两个工作日内联系你', 'success');
      window.location.assign(`/user/dingzhi/${detail.uid}`);
    } catch (error) {
      const message = error instanceof RequestError || error instanceof Error ? error.message : '提交失败，请重试';
      const field = fieldOf(message);
      setErrors(field ? { [field]: message.replace(/^.*?：/, '') } : { attachments: message });
      setSending(false);
    }
  }

  const length = values.description.trim().length;
  return (
    <form className="dz-form" noValidate onSubmit={submit}>
      <Fieldset legend="联系信息">
        <Field
          label="机构/公司名称"
          name="organisation"
          data-early-input="dingzhi-organisation"
          value={values.organisation}
          onChange={set('organisation')}
          error={errors.organisation}
          hint="个人委托请填写姓名"
          autoComplete="organization"
          maxLength={60}
          required
        />
        <Field
          label="联系人"
          name="contactName"
          data-early-input="dingzhi-contactName"
          value={values.contactName}
          onChange={set('contactName')}
          error={errors.contactName}
          autoComplete="name"
          maxLength={30}
          required
        />
        <Field
          label="手机号"
          name="phone"
          type="tel"
          data-early-input="dingzhi-phone"
          value={values.phone}
          onChange={set('phone')}
          error={errors.phone}
          hint="手机号和邮箱至少填写一项"
          autoComplete="tel"
          inputMode="numeric"
          maxLength={11}
        />
        <Field
          label="邮箱"
          name="email"
          type="email"
          data-early-input="dingzhi-email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          hint="每一步进展也会发到这个邮箱"
          autoComplete="email"
          maxLength={100}
        />
      </Fieldset>

      <Fieldset legend="定制内容">
        <Choice
          label="定制类型"
          name="kind"
          value={values.kind}
          options={CUSTOM_FONT_KINDS}
          onChange={set('kind')}
          error={errors.kind}
          placeholder="请选择"
        />
        <Choice
          label="字符集"
          name="charset"
          value={values.charset}
          options={CUSTOM_FONT_CHARSETS}
          onChange={set('charset')}
          error={errors.charset}
          placeholder="请选择"
        />
        {values.charset === 'custom' && (
          <Field
            label="需要的字数"
            name="customCount"
            type="number"
            data-early-input="dingzhi-customCount"
            value={values.customCount}
            onChange={set('customCount')}
            error={errors.customCount}
            hint="古籍缺字补造请填写需要补造的字数"
            min={1}
            max={100000}
            inputMode="numeric"
          />
        )}
        <Field
          label="字重数量"
          name="weights"
          type="number"
          data-early-input="dingzhi-weights"
          value={values.weights}
          onChange={set('weights')}
          error={errors.weights}
          hint="例如常规、中等、粗体为 3 个字重"
          min={1}
          max={12}
          inputMode="numeric"
          required
        />
        <Field
          label="期望交付日期（选填）"
          name="deadline"
          type="date"
          data-early-input="dingzhi-deadline"
          value={values.deadline}
          onChange={set('deadline')}
          error={errors.deadline}
          min={today}
        />
        <Choice
          label="预算范围"
          name="budget"
          value={values.budget}
          options={CUSTOM_FONT_BUDGETS}
          onChange={set('budget')}
          error={errors.budget}
          placeholder="请选择"
        />
      </Fieldset>

      <div className="account-field" data-state={errors.description ? 'error' : 'idle'}>
        <label className="account-field__label" htmlFor={descriptionId}>
          需求描述
        </label>
        <textarea
          id={descriptionId}
          name="description"
          className="input dz-form__description"
          data-early-input="dingzhi-description"
          value={values.description}
          onChange={(event) => set('description')(event.target.value)}
          rows={6}
          maxLength={2200}
          placeholder="字体用在哪里（标志、包装、屏幕、出版物），想要的气质，参考字体，已有的资料等"
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${descriptionId}-count${errors.description ? ` ${descriptionId}-error` : ''}`}
          required
        />
        <p id={`${descriptionId}-count`} className="account-field__hint">
          {length} / 2000
        </p>
        {errors.description && (
          <p id={`${descriptionId}-error`} className="account-field__error">
            {errors.description}
          </p>
        )}
      </div>

      <div className="account-field dz-files" data-state={errors.attachments ? 'error' : 'idle'}>
        <label className="account-field__label" htmlFor={filesId}>
          附件（选填）
        </label>
        <input
          id={filesId}
          type="file"
          multiple
          accept={ACCEPT}
          className="dz-files__input"
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
          disabled={files.length >= CUSTOM_FONT_MAX_FILES}
          aria-describedby={`${filesId}-hint${errors.attachments ? ` ${filesId}-error` : ''}`}
        />
        <p id={`${filesId}-hint`} className="account-field__hint">
          标志与品牌手册、写在模板上的手写样张、书页扫描、字表或参考字体；图片、PDF、ZIP 或字体文件，每个不超过{' '}
          {CUSTOM_FONT_MAX_FILE_MB} MB，最多 {CUSTOM_FONT_MAX_FILES} 个。
        </p>
        {files.length > 0 && (
          <ul className="dz-files__list" aria-label="已选的附件">
            {files.map((file) => (
              <li key={file.id}>
                <span className="dz-files__name">{file.name}</span>
                <span className="uc-meta" role={file.error ? 'alert' : undefined}>
                  {file.error ?? (file.ref ? '已上传' : `上传中 ${Math.round(file.progress * 100)}%`)}
                </span>
                <button
                  type="button"
                  className="btn btn--ghost btn--sm"
                  onClick={() => setFiles((current) => current.filter((item) => item.id !== file.id))}
                  aria-label={`移除 ${file.name}`}
                >
                  移除
                </button>
              </li>
            ))}
          </ul>
        )}
        {errors.attachments && (
          <p id={`${filesId}-error`} className="account-field__error" role="alert" data-error tabIndex={-1}>
            {errors.attachments}
          </p>
        )}
      </div>

      <button className="btn btn--primary btn--lg" type="submit" disabled={sending}>
        {sending ? '正在提交…' : '提交需求'}
      </button>
    </form>
  );
}
