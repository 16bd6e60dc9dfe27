import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { API_BASE, TOKEN_HEADER } from '../../api/http.ts';
import { previewUrl } from '../../api/submissions.ts';
import type { SubmissionFileView } from '../../contract/submissions.ts';
import { $token } from '../../stores/session.ts';

// A live preview of a submitted font, for its designer and its reviewers: sample lines at several
// sizes, or a grid of the 通用规范 level-1 characters page by page. The text is drawn in the face
// itself from a WOFF2 subset the server makes (the subset service's workers) and characters the face
// lacks are boxed, never drawn by a fallback font.

interface Props {
  uid: string;
  files: SubmissionFileView[];
}

const SAMPLES = [
  '永和九年，岁在癸丑，暮春之初，会于会稽山阴之兰亭。',
  '天地玄黄 宇宙洪荒 日月盈昃 辰宿列张',
  'ABCDEFGHIJKLM abcdefghijklm 0123456789',
];
const SIZES = [48, 28, 16];
const GRID_PAGE = 200;

interface Loaded {
  family: string;
  missing: Set<string>;
}

let grid: Promise<string[]> | undefined;
/** The 3500 characters, from the same sheet /tougao offers for download. */
function gridCharacters(): Promise<string[]> {
  grid ??= fetch(`${API_BASE}/web/api/contributeTemplate/file?name=tongyong-3500`)
    .then((res) => res.text())
    .then((text) =>
      text
        .split('\n')
        .filter((line) => /^\d{4} {2}/.test(line))
        .flatMap((line) => [...line.slice(6)]),
    );
  return grid;
}

async function loadFace(uid: string, file: number, face: number, text: string): Promise<Loaded> {
  const token = $token.get();
  const res = await fetch(previewUrl(uid, file, face, text), {
    credentials: 'include',
    headers: token ? { [TOKEN_HEADER]: token } : {},
  });
  if (!res.ok) throw new Error('预览加载失败，请稍后再试');
  const missing = new Set([...decodeURIComponent(res.headers.get('x-missing-characters') ?? '')]);
  const family = `submission-${file}-${face}-${Math.random().toString(36).slice(2, 8)}`;
  const fontFace = new FontFace(family, await res.arrayBuffer());
  await fontFace.load();
  document.fonts.add(fontFace);
  return { family, missing };
}

function Line({ text, loaded, size }: { text: string; loaded: Loaded; size: number }): ReactElement {
  return (
    <p className="sub-preview__line" style={{ fontFamily: `"${loaded.family}", sans-serif`, fontSize: size }}>
      {[...text].map((ch, i) =>
        loaded.missing.has(ch) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: characters repeat; position is the identity
          <span key={i} className="sub-preview__missing" title={`缺少“${ch}”`}>
            {ch}
          </span>
        ) : (
          ch
        ),
      )}
    </p>
  );
}

/** The preview: pick a file and a weight, type a line or page through the grid. */
export default function FontPreview({ uid, files }: Props): ReactElement {
  const faces = files.flatMap((file) => file.faces.map((face, index) => ({ file, face, index })));
  const [choice, setChoice] = useState(0);
  const [mode, setMode] = useState<'lines' | 'grid'>('lines');
  const [custom, setCustom] = useState('');
  const [page, setPage] = useState(0);
  const [chars, setChars] = useState<string[]>([]);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [error, setError] = useState('');
  const id = useId();
  const request = useRef(0);
  const picked = faces[choice];
  const lines = custom.trim() ? [custom.trim()] : SAMPLES;
  const gridText = chars.slice(page * GRID_PAGE, (page + 1) * GRID_PAGE).join('');
  const text = mode === 'grid' ? gridText : lines.join('');

  useEffect(() => {
    if (mode === 'grid' && chars.length === 0) void gridCharacters().then(setChars);
  }, [mode, chars.length]);

  useEffect(() => {
    if (!picked || !text) return;
    const mine = ++request.current;
    const timer = setTimeout(() => {
      loadFace(uid, picked.file.id, picked.index, text).then(
        (result) => {
          if (mine !== request.current) return;
          setLoaded(result);
          setError('');
        },
        (caught: Error) => {
          if (mine === request.current) setError(caught.message);
        },
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [uid, picked, text]);

  if (!picked) return <p className="uc-empty">还没有可以预览的字体文件。</p>;
  const pages = Math.ceil(chars.length / GRID_PAGE);
  return (
    <div className="sub-preview">
      <div className="sub-preview__controls">
        <label htmlFor={`${id}-face`}>字重</label>
        <select
          id={`${id}-face`}
          className="input"
          value={choice}
          onChange={(event) => setChoice(Number(event.target.value))}
        >
          {faces.map((item, i) => (
            <option key={`${item.file.id}-${item.index}`} value={i}>
              {item.face.fullName}
              {item.file.kind === 'final' ? '（终稿）' : ''}
            </option>
          ))}
        </select>
        <fieldset className="sub-preview__modes">
          <legend className="visually-hidden">预览方式</legend>
          <label>
            <input type="radio" name={`${id}-mode`} checked={mode === 'lines'} onChange={() => setMode('lines')} />
            样张
          </label>
          <label>
            <input type="radio" name={`${id}-mode`} checked={mode === 'grid'} onChange={() => setMode('grid')} />
            字表
          </label>
        </fieldset>
      </div>
      {mode === 'lines' && (
        <div className="sub-field">
          <label htmlFor={`${id}-text`}>预览文字</label>
          <input
            id={`${id}-text`}
            className="input"
            maxLength={100}
            placeholder="输入任意文字，留空显示默认样张"
            value={custom}
            onChange={(event) => setCustom(event.target.value)}
          />
        </div>
      )}
      {error && <p className="uc-notice uc-notice--error">{error}</p>}
      <div className="sub-preview__stage" aria-busy={!loaded || undefined} aria-live="polite">
        {loaded &&
          mode === 'lines' &&
          lines.flatMap((line) =>
            SIZES.map((size) => <Line key={`${line}-${size}`} text={line} loaded={loaded} size={size} />),
          )}
        {loaded && mode === 'grid' && (
          <>
            <p className="uc-meta">
              通用规范汉字表一级字表，第 {page * GRID_PAGE + 1}–{Math.min(chars.length, (page + 1) * GRID_PAGE)} 字
              {loaded.missing.size > 0
                ? `，本页缺 ${[...gridText].filter((ch) => loaded.missing.has(ch)).length} 字（虚线框）`
                : '，本页全部覆盖'}
            </p>
            <ul className="sub-grid-chars" style={{ fontFamily: `"${loaded.family}", sans-serif` }}>
              {[...gridText].map((ch) => (
                <li key={ch} data-missing={loaded.missing.has(ch) ? '' : undefined}>
                  {ch}
                </li>
              ))}
            </ul>
            <div className="sub-actions">
              <button type="button" className="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>
                上一页
              </button>
              <span className="uc-meta">
                {page + 1} / {pages}
              </span>
              <button type="button" className="btn" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                下一页
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
