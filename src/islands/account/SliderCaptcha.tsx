import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { type CaptchaPuzzle, type CaptchaTrack, checkCaptcha, getCaptcha } from '../../api/captcha.ts';
import '../../styles/captcha.css';
import { trapTab } from '../../lib/trap-tab.ts';
import { Icon } from '../common/icons.tsx';
import { encryptCaptchaPoint } from './captcha-cipher.ts';

/** The width the server draws puzzles at; answers are given in these pixels. */
const IMAGE_WIDTH = 310;
/** The y every block-puzzle answer carries (the piece strip is full height). */
const POINT_Y = 5;

type Status = 'loading' | 'ready' | 'checking' | 'passed' | 'failed' | 'error';

/** Samples kept per drag: enough for a long, slow one (the server takes up to 600). */
const MAX_TRACK_POINTS = 500;

/**
 * This browser's own id for the captcha (AJ-Captcha's clientUid): the server counts failed puzzles
 * per browser as well as per address, so one person behind a shared address is not made to pay
 * for another's failures.
 */
function clientUid(): string | undefined {
  try {
    const stored = localStorage.getItem('captcha-client-uid');
    if (stored) return stored;
    const made = crypto.randomUUID();
    localStorage.setItem('captcha-client-uid', made);
    return made;
  } catch {
    return undefined;
  }
}

/** Records the drag (or the key presses) that moves the piece, as the server judges it. */
class TrackRecorder {
  private track: CaptchaTrack = { kind: 'pointer', points: [] };
  private startedAt = 0;
  private startY = 0;

  /** Starts a new track at `x` (puzzle pixels); `y` is the pointer's page y, or 0 for keys. */
  start(kind: CaptchaTrack['kind'], x: number, y = 0): void {
    this.track = { kind, points: [] };
    this.startedAt = performance.now();
    this.startY = y;
    this.add(x, y);
  }

  /** Whether keys already record a track (a drag always starts a new one). */
  get recordingKeys(): boolean {
    return this.track.kind === 'keys' && this.track.points.length > 0;
  }

  add(x: number, y = this.startY, last = false): void {
    const points = this.track.points;
    // A very slow drag keeps its first samples and its end.
    if (points.length >= MAX_TRACK_POINTS && !last) return;
    const t = Math.round(performance.now() - this.startedAt);
    points.push([t, Math.round(x * 10) / 10, Math.round(y - this.startY)]);
  }

  finish(): CaptchaTrack {
    return this.track;
  }
}

const STATUS_TEXT: Partial<Record<Status, string>> = {
  loading: '正在加载拼图…',
  checking: '正在验证…',
  passed: '验证通过',
};

/** Props of {@link SliderCaptcha}. */
export interface SliderCaptchaProps {
  open: boolean;
  /** Called with the verification of a passed puzzle, for the action that follows. */
  onPass(verification: string): void;
  /** Called when the person closes the puzzle without solving it. */
  onCancel(): void;
  /** The account the action that follows is for, when there is one (a login asks for more puzzles after wrong passwords). */
  account?: string | undefined;
}

/**
 * The slider puzzle (AJ-Captcha block puzzle) in its own modal dialog: drag the knob, or move it
 * with the arrow keys and press Enter, until the piece fills the hole. A miss loads a new puzzle.
 */
export default function SliderCaptcha({ open, onPass, onCancel, account }: SliderCaptchaProps): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ startX: number; startOffset: number } | null>(null);
  const track = useRef(new TrackRecorder());
  const [puzzle, setPuzzle] = useState<CaptchaPuzzle | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [message, setMessage] = useState('');
  const [offset, setShownOffset] = useState(0);
  // Key repeat can deliver several keys before React renders again; reading the latest position
  // from a ref keeps every press and lets Enter submit where the knob really is.
  const latestOffset = useRef(0);
  const setOffset = useCallback((value: number) => {
    latestOffset.current = value;
    setShownOffset(value);
  }, []);
  const [width, setWidth] = useState(IMAGE_WIDTH);
  const [pieceWidth, setPieceWidth] = useState(52);
  const titleId = useId();
  const hintId = useId();

  const load = useCallback(
    async (note = '') => {
      setStatus('loading');
      // The old picture goes at once: solving it while the new one loads would answer the wrong puzzle.
      setPuzzle(null);
      setOffset(0);
      track.current = new TrackRecorder();
      setMessage(note);
      try {
        const asker = { clientUid: clientUid(), ...(account ? { account } : {}) };
        const answer = await getCaptcha(asker);
        if (answer.repCode !== '0000' || !answer.repData) throw new Error(answer.repMsg ?? '');
        setPuzzle(answer.repData);
        setStatus('ready');
      } catch (error) {
        const status = (error as { status?: number }).status;
        setStatus('error');
        const said = (error as { data?: { repMsg?: string } }).data?.repMsg;
        setMessage(status === 429 ? (said ?? '获取拼图太频繁，请稍后再试') : '拼图加载失败，请点“换一张”重试');
      }
    },
    [setOffset, account],
  );

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      void load();
    }
    if (!open) {
      if (element.open) element.close();
      // Never show a used puzzle when the dialog opens again.
      setPuzzle(null);
    }
  }, [open, load]);

  useEffect(() => {
    const element = stage.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth || IMAGE_WIDTH));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const scale = width / IMAGE_WIDTH;
  const maxOffset = Math.max(0, width - pieceWidth * scale);
  const clamp = (value: number) => Math.min(maxOffset, Math.max(0, value));
  const movable = status === 'ready';

  /** The knob's offset on screen in puzzle pixels, as answers and tracks give it. */
  const toPuzzle = (at: number) => (at * IMAGE_WIDTH) / width;

  async function submit(at: number): Promise<void> {
    if (!puzzle || status !== 'ready') return;
    setStatus('checking');
    const point = JSON.stringify({ x: toPuzzle(at), y: POINT_Y });
    try {
      const answer = await checkCaptcha({
        captchaType: 'blockPuzzle',
        token: puzzle.token,
        pointJson: encryptCaptchaPoint(point, puzzle.secretKey),
        trackJson: encryptCaptchaPoint(JSON.stringify(track.current.finish()), puzzle.secretKey),
        clientUid: clientUid(),
      });
      const next = answer.repData;
      if (answer.repCode === '6114' && next?.token && next.secretKey && next.originalImageBase64) {
        // Passed, and the server asks for one more (after failures): the next puzzle came with the answer.
        setPuzzle({
          token: next.token,
          secretKey: next.secretKey,
          originalImageBase64: next.originalImageBase64,
          jigsawImageBase64: next.jigsawImageBase64 ?? '',
        });
        setOffset(0);
        track.current = new TrackRecorder();
        setStatus('ready');
        setMessage('验证通过，请再完成一张拼图');
        return;
      }
      if (answer.repCode === '0000') {
        setStatus('passed');
        setMessage('验证通过');
        const verification =
          answer.repData?.captchaVerification ?? encryptCaptchaPoint(`${puzzle.token}---${point}`, puzzle.secretKey);
        // Closed here, before the action goes on, so the focus the dialog hands back cannot land after
        // whatever the action focuses next (a refused login focuses its password).
        window.setTimeout(() => {
          dialog.current?.close();
          onPass(verification);
        }, 400);
        return;
      }
      setStatus('failed');
      const note = answer.repCode === '6110' ? '拼图已过期，已换一张' : '没有对准，请再试一次';
      window.setTimeout(() => void load(note), 700);
      setMessage(note);
    } catch (error) {
      const status = (error as { status?: number }).status;
      const said = (error as { data?: { repMsg?: string } }).data?.repMsg;
      setStatus('failed');
      const note = status === 429 ? (said ?? '验证太频繁，请稍后再试') : '验证没有成功，已换一张';
      window.setTimeout(() => void load(note), 700);
      setMessage(note);
    }
  }

  function onPointerDown(event: PointerEvent<HTMLButtonElement>): void {
    if (!movable) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { startX: event.clientX, startOffset: latestOffset.current };
    track.current.start('pointer', toPuzzle(latestOffset.current), event.clientY);
  }

  function onPointerMove(event: PointerEvent<HTMLButtonElement>): void {
    if (!drag.current) return;
    const at = clamp(drag.current.startOffset + event.clientX - drag.current.startX);
    setOffset(at);
    track.current.add(toPuzzle(at), event.clientY);
  }

  function onPointerUp(event: PointerEvent<HTMLButtonElement>): void {
    if (!drag.current) return;
    const end = clamp(drag.current.startOffset + event.clientX - drag.current.startX);
    drag.current = null;
    setOffset(end);
    track.current.add(toPuzzle(end), event.clientY, true);
    if (end > 0) void submit(end);
  }

  function onKnobKey(event: KeyboardEvent<HTMLButtonElement>): void {
    if (!movable) return;
    const step = event.shiftKey ? 10 : 1;
    const offset = latestOffset.current;
    const moves: Record<string, number> = {
      ArrowRight: offset + step,
      ArrowUp: offset + step,
      ArrowLeft: offset - step,
      ArrowDown: offset - step,
      Home: 0,
      End: maxOffset,
    };
    const next = moves[event.key];
    if (next !== undefined) {
      event.preventDefault();
      if (!track.current.recordingKeys) track.current.start('keys', toPuzzle(offset));
      setOffset(clamp(next));
      track.current.add(toPuzzle(clamp(next)), 0, true);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      void submit(offset);
    }
  }

  const shown = STATUS_TEXT[status] ?? message;
  return (
    <dialog
      ref={dialog}
      className="slider-captcha"
      aria-labelledby={titleId}
      aria-describedby={hintId}
      // The account dialog around this one must not see these events: its close would close both.
      onClose={(event) => {
        event.stopPropagation();
        if (open) onCancel();
      }}
      onCancel={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        event.stopPropagation();
        trapTab(event);
      }}
      onClick={(event) => event.stopPropagation()}
    >
      <div className="slider-captcha__head">
        <h2 id={titleId} className="slider-captcha__title">
          安全验证
        </h2>
        <button type="button" className="icon-button" aria-label="关闭验证" onClick={() => dialog.current?.close()}>
          <Icon name="close" />
        </button>
      </div>
      <p id={hintId} className="slider-captcha__hint">
        拖动下方滑块，把拼图块放进和它形状相同的缺口。也可以聚焦滑块后用方向键移动，按回车确认。
      </p>
      <div className="slider-captcha__stage" ref={stage} data-status={status}>
        {puzzle ? (
          <>
            <img
              className="slider-captcha__background"
              src={`data:image/png;base64,${puzzle.originalImageBase64}`}
              alt="带缺口的拼图背景"
              draggable={false}
            />
            <img
              className="slider-captcha__piece"
              src={`data:image/png;base64,${puzzle.jigsawImageBase64}`}
              alt="拼图块"
              draggable={false}
              style={{ left: `${offset}px`, width: `${pieceWidth * scale}px` }}
              onLoad={(event) => setPieceWidth(event.currentTarget.naturalWidth || 52)}
            />
          </>
        ) : (
          <div className="slider-captcha__placeholder" />
        )}
        <button
          type="button"
          className="slider-captcha__refresh"
          onClick={() => void load()}
          disabled={status === 'checking'}
        >
          换一张
        </button>
      </div>
      <div className="slider-captcha__track" data-status={status}>
        <div className="slider-captcha__fill" style={{ width: `${offset + 20}px` }} />
        <span className="slider-captcha__track-text" aria-hidden="true">
          {offset === 0 && status === 'ready' ? '向右拖动滑块完成拼图' : ''}
        </span>
        <button
          type="button"
          role="slider"
          className="slider-captcha__knob"
          aria-label="拼图滑块"
          aria-valuemin={0}
          aria-valuemax={Math.round(maxOffset)}
          aria-valuenow={Math.round(offset)}
          aria-disabled={!movable}
          style={{ transform: `translateX(${offset}px)` }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            // The browser took the pointer (a scroll, a system gesture): start again from the left.
            drag.current = null;
            setOffset(0);
            track.current = new TrackRecorder();
          }}
          onDragStart={(event) => event.preventDefault()}
          onKeyDown={onKnobKey}
        >
          <span aria-hidden="true">→</span>
        </button>
      </div>
      <p className="slider-captcha__status" role="status" aria-live="polite" data-status={status}>
        {shown}
      </p>
    </dialog>
  );
}
