import { type FormEvent, type PointerEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { signAgreement } from '../../api/user-data.ts';
import { takeEarlyInput } from '../../lib/early-clicks.ts';
import { validateAccount } from '../../lib/validate.ts';
import { showToast } from '../../stores/toast.ts';
import { debounce, loadPreviews } from '../fonts/font-previews.ts';
import { Field } from './fields.tsx';

/** The brush face a typed signature is set in (the server falls back to another when it lacks a character). */
const SIGNATURE_GNO = 'ma-shan-zheng';

interface Props {
  version: string;
  /** The account's name and address, to start from. */
  defaults: { legalName: string; contact: string };
}

type Errors = Partial<Record<'legalName' | 'creditName' | 'contact' | 'address' | 'signature' | 'agree', string>>;

/** The drawing pad: strokes follow the pointer (mouse, pen or finger) on a 2× canvas. */
function usePad() {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [inked, setInked] = useState(false);

  const context = () => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) {
      ctx.lineWidth = 5;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#1d1c1a';
    }
    return ctx;
  };
  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const scale = event.currentTarget.width / box.width;
    return [(event.clientX - box.left) * scale, (event.clientY - box.top) * scale] as const;
  };
  return {
    canvas,
    inked,
    down(event: PointerEvent<HTMLCanvasElement>) {
      event.currentTarget.setPointerCapture(event.pointerId);
      drawing.current = true;
      const ctx = context();
      const [x, y] = point(event);
      ctx?.beginPath();
      ctx?.moveTo(x, y);
    },
    move(event: PointerEvent<HTMLCanvasElement>) {
      if (!drawing.current) return;
      const ctx = context();
      const [x, y] = point(event);
      ctx?.lineTo(x, y);
      ctx?.stroke();
      setInked(true);
    },
    up() {
      drawing.current = false;
    },
    clear() {
      const element = canvas.current;
      element?.getContext('2d')?.clearRect(0, 0, element.width, element.height);
      setInked(false);
    },
    image: () => canvas.current?.toDataURL('image/png') ?? '',
  };
}

/**
 * Signing the contributor agreement: the signer's details, a signature (the name set in a brush
 * face, or drawn by hand), consent, then one call. The server makes the PDF; the page reloads to
 * show the signed state and its download.
 */
export default function SigningForm({ version, defaults }: Props): ReactElement {
  const [legalName, setLegalName] = useState(defaults.legalName);
  const [creditName, setCreditName] = useState('');
  const [contact, setContact] = useState(defaults.contact);
  const [address, setAddress] = useState('');
  const [mode, setMode] = useState<'typed' | 'drawn'>('typed');
  const [agree, setAgree] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const pad = usePad();
  const preview = useRef<HTMLSpanElement>(null);
  const refreshPreview = useRef(debounce(() => void loadPreviews(preview.current?.parentElement ?? undefined), 400));

  // What was typed before this script arrived is kept: hydrating put the first values back in the
  // fields, and the inline listener (src/lib/inline-scripts.ts) kept what was typed.
  useEffect(() => {
    const setters = { legalName: setLegalName, creditName: setCreditName, contact: setContact, address: setAddress };
    for (const [key, set] of Object.entries(setters)) {
      const typed = takeEarlyInput(`signing-${key}`);
      if (typed !== undefined) set(typed);
    }
  }, []);

  useEffect(() => {
    if (mode === 'typed' && legalName.trim()) refreshPreview.current();
  }, [mode, legalName]);

  function check(): Errors {
    const found: Errors = {};
    if (legalName.trim().length < 2) found.legalName = '请填写真实姓名或工作室名称';
    if (!creditName.trim()) found.creditName = '请填写署名';
    if (!contact.trim()) found.contact = '请填写手机号或邮箱';
    else if (validateAccount(contact.trim())) found.contact = '联系方式格式不正确，请填写手机号或邮箱';
    if (address.trim().length > 120) found.address = '地址最多 120 个字';
    if (mode === 'drawn' && !pad.inked) found.signature = '请在签名框里写下你的名字';
    if (!agree) found.agree = '请先阅读并勾选同意协议';
    return found;
  }

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) {
      event.currentTarget.querySelector<HTMLElement>('[aria-invalid="true"], [data-error]')?.focus();
      return;
    }
    setSending(true);
    try {
      await signAgreement({
        version,
        legalName: legalName.trim(),
        creditName: creditName.trim(),
        contact: contact.trim(),
        address: address.trim(),
        agree: true,
        signature: mode === 'drawn' ? { kind: 'drawn', image: pad.image() } : { kind: 'typed' },
      });
      showToast('签署成功，协议 PDF 已生成', 'success');
      window.location.reload();
    } catch {
      // The API client showed the server's message.
      setSending(false);
    }
  }

  return (
    <form className="signing-form" noValidate onSubmit={submit}>
      <h2>签署信息</h2>
      <Field
        label="真实姓名或工作室名称"
        data-early-input="signing-legalName"
        value={legalName}
        onChange={setLegalName}
        error={errors.legalName}
        autoComplete="name"
        maxLength={40}
        required
      />
      <Field
        label="署名"
        data-early-input="signing-creditName"
        value={creditName}
        onChange={setCreditName}
        error={errors.creditName}
        hint="作品页面上显示的作者名，可以是笔名或工作室名"
        maxLength={40}
        required
      />
      <Field
        label="手机号或邮箱"
        data-early-input="signing-contact"
        value={contact}
        onChange={setContact}
        error={errors.contact}
        autoComplete="email"
        maxLength={100}
        required
      />
      <Field
        label="通讯地址（选填）"
        data-early-input="signing-address"
        value={address}
        onChange={setAddress}
        error={errors.address}
        autoComplete="street-address"
        maxLength={120}
      />

      <fieldset className="signing-form__signature">
        <legend>签名方式</legend>
        <div className="signing-form__modes">
          <label>
            <input type="radio" name="mode" checked={mode === 'typed'} onChange={() => setMode('typed')} />
            用姓名生成签名
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'drawn'} onChange={() => setMode('drawn')} />
            手写签名
          </label>
        </div>
        {mode === 'typed' ? (
          <p className="signing-form__typed">
            <span ref={preview} data-preview-gno={SIGNATURE_GNO} className="signing-form__typed-name">
              {legalName.trim() || '你的姓名'}
            </span>
            <small>签名以马善政毛笔楷书排入协议 PDF。</small>
          </p>
        ) : (
          <div className="signing-form__pad">
            <canvas
              ref={pad.canvas}
              width={800}
              height={260}
              aria-label="手写签名框：用鼠标、触控笔或手指写下你的名字"
              data-error={errors.signature ? '' : undefined}
              tabIndex={0}
              onPointerDown={pad.down}
              onPointerMove={pad.move}
              onPointerUp={pad.up}
              onPointerCancel={pad.up}
            />
            <button type="button" className="btn btn--ghost" onClick={pad.clear}>
              清除重写
            </button>
          </div>
        )}
        {errors.signature && (
          <p className="account-field__error" role="alert">
            {errors.signature}
          </p>
        )}
      </fieldset>

      <label className="signing-form__agree">
        <input
          type="checkbox"
          checked={agree}
          onChange={(event) => setAgree(event.target.checked)}
          aria-invalid={errors.agree ? true : undefined}
        />
        我已阅读并同意《造字联盟字体投稿协议》（{version} 版）
      </label>
      {errors.agree && (
        <p className="account-field__error" role="alert">
          {errors.agree}
        </p>
      )}
      <button className="btn btn--primary btn--lg" type="submit" disabled={sending}>
        {sending ? '正在生成协议…' : '签署协议'}
      </button>
    </form>
  );
}
