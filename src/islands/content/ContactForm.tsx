import { type FormEvent, type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { saveBoardMessage } from '../../api/common.ts';
import { validateAccount } from '../../lib/validate.ts';
import { showToast } from '../../stores/toast.ts';
import { Field } from '../account/fields.tsx';
import { CaptchaCancelled, useCaptcha } from '../account/use-captcha.tsx';

/** The server's limits on a message (messageBoard/save). */
const MIN_CONTENT = 5;
const MAX_CONTENT = 1000;

interface Errors {
  name?: string | undefined;
  contact?: string | undefined;
  content?: string | undefined;
}

/** Checks the form the way the server does, so that most mistakes are caught before sending. */
export function checkBoardMessage(values: { name: string; contact: string; content: string }): Errors {
  const errors: Errors = {};
  if (!values.name.trim()) errors.name = '请填写称呼';
  else if (values.name.trim().length > 30) errors.name = '称呼最多 30 个字';
  if (!values.contact.trim()) errors.contact = '请填写手机号或邮箱';
  else if (validateAccount(values.contact.trim())) errors.contact = '联系方式格式不正确，请填写手机号或邮箱';
  const length = values.content.trim().length;
  if (length < MIN_CONTENT) errors.content = `留言内容至少 ${MIN_CONTENT} 个字`;
  else if (length > MAX_CONTENT) errors.content = `留言内容最多 ${MAX_CONTENT} 个字`;
  return errors;
}

/** A signed-in writer: their name and address fill the form, and no puzzle is asked. */
interface Member {
  name: string;
  contact: string;
}

/**
 * The contact form (messageBoard/save): name, a mobile number or e-mail to reply to, and the
 * message. Sending asks visitors for the slider puzzle first; the server checks everything again.
 * On the user centre's contact page (`member` given) a sent message reloads the page, which lists it.
 */
export default function ContactForm({ member }: { member?: Member }): ReactElement {
  const [name, setName] = useState(member?.name ?? '');
  const [contact, setContact] = useState(member?.contact ?? '');
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const captcha = useCaptcha();
  const contentId = useId();
  const form = useRef<HTMLFormElement>(null);

  // The form is in the page before its script runs; whatever a quick reader typed by then lives in
  // the fields, not in state, and would be wiped by the next render. Take it over once.
  useEffect(() => {
    const fields = form.current?.elements;
    const typed = (name: string) => (fields?.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null)?.value;
    setName((value) => value || typed('name') || '');
    setContact((value) => value || typed('contact') || '');
    setContent((value) => value || typed('content') || '');
  }, []);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const found = checkBoardMessage({ name, contact, content });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSending(true);
    try {
      const captchaVerification = member ? undefined : await captcha.verify();
      await saveBoardMessage({
        name: name.trim(),
        contact: contact.trim(),
        content: content.trim(),
        ...(captchaVerification ? { captchaVerification } : {}),
      });
      setSent(true);
      setContent('');
      showToast('留言已收到，我们会尽快回复', 'success');
      if (member) window.location.reload();
    } catch (error) {
      // A closed puzzle is the person's choice; server errors were shown by the API client.
      if (!(error instanceof CaptchaCancelled)) setSent(false);
    } finally {
      setSending(false);
    }
  }

  const length = content.trim().length;
  return (
    <form className="contact-form" noValidate onSubmit={submit} ref={form}>
      <Field
        label="称呼"
        name="name"
        value={name}
        onChange={setName}
        error={errors.name}
        autoComplete="name"
        maxLength={30}
        required
      />
      <Field
        label="手机号或邮箱"
        name="contact"
        value={contact}
        onChange={setContact}
        error={errors.contact}
        hint="我们只用它回复你的留言"
        autoComplete="email"
        inputMode="email"
        maxLength={100}
        required
      />
      <div className="account-field" data-state={errors.content ? 'error' : 'idle'}>
        <label className="account-field__label" htmlFor={contentId}>
          留言内容
        </label>
        <textarea
          id={contentId}
          name="content"
          className="input contact-form__content"
          value={content}
          onChange={(event) => setContent(event.target.value)}
          rows={6}
          maxLength={MAX_CONTENT + 200}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={`${contentId}-count${errors.content ? ` ${contentId}-error` : ''}`}
          required
        />
        <p id={`${contentId}-count`} className="account-field__hint">
          {length} / {MAX_CONTENT}
        </p>
        {errors.content && (
          <p id={`${contentId}-error`} className="account-field__error" role="alert">
            {errors.content}
          </p>
        )}
      </div>
      <button className="btn btn--primary btn--lg" type="submit" disabled={sending}>
        {sending ? '正在提交…' : '提交留言'}
      </button>
      {sent && (
        <p className="contact-form__sent" role="status">
          留言已收到。我们会在两个工作日内通过你留下的联系方式回复。
        </p>
      )}
      {captcha.element}
    </form>
  );
}
