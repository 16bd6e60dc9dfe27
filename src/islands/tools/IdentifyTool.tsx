import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import {
  type FoundGlyphs,
  findGlyphs,
  type GlyphBox,
  type IdentifyResult,
  matchFonts,
  type PictureView,
  readCharacters,
  type UploadedPicture,
  uploadPicture,
} from '../../api/identify.ts';
import { IDENTIFY_MAX_BYTES } from '../../contract/identify.ts';
import { installFontActions } from '../fonts/font-actions.ts';
import { Elapsed } from './Elapsed.tsx';
import { type EditableGlyph, glyphKey, newBox, splitBox, unionBox } from './identify/boxes.ts';
import { Candidates } from './identify/Candidates.tsx';
import { GlyphBoxEditor } from './identify/GlyphBoxEditor.tsx';
import { GlyphCrop } from './identify/GlyphCrop.tsx';
import { PictureCropper } from './identify/PictureCropper.tsx';
import { messageOf } from './picked-font.ts';
import { ToolStep } from './ToolStep.tsx';

const ACCEPT = 'image/png,image/jpeg,image/webp';

/**
 * The font identification tool (SPEC §1, §2 /tools/unidentifiedBody): upload or paste a picture,
 * crop and turn it, let the server cut the glyphs and suggest their characters, correct boxes and
 * characters, then see the library's closest fonts with the text drawn in each.
 */
export function IdentifyTool(): ReactElement {
  const ids = { file: useId(), status: useId() };
  const [picture, setPicture] = useState<(UploadedPicture & { src: string }) | null>(null);
  const [crop, setCrop] = useState<GlyphBox | undefined>();
  const [quarter, setQuarter] = useState(0);
  const [fine, setFine] = useState(0);
  const [found, setFound] = useState<FoundGlyphs | null>(null);
  const [glyphs, setGlyphs] = useState<EditableGlyph[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [result, setResult] = useState<IdentifyResult | null>(null);
  // What is being done now, and since when (performance.now()), for the time spent.
  const [busy, setBusyText] = useState('');
  const [busySince, setBusySince] = useState(0);
  const setBusy = (text: string) => {
    setBusyText(text);
    if (text) setBusySince(performance.now());
  };
  const [error, setError] = useState('');
  const [preparedImage, setPreparedImage] = useState<HTMLImageElement | null>(null);
  const view = useRef<PictureView | null>(null);

  useEffect(() => installFontActions(), []);

  async function choose(file: File | undefined) {
    if (!file) return;
    setError('');
    if (!ACCEPT.split(',').includes(file.type)) {
      setError('请选择 PNG、JPEG 或 WebP 图片');
      return;
    }
    if (file.size > IDENTIFY_MAX_BYTES) {
      setError('图片最大 10 MB，请压缩或裁剪后再上传');
      return;
    }
    setBusy('正在上传图片……');
    try {
      const uploaded = await uploadPicture(file, file.name || 'clipboard.png');
      if (picture) URL.revokeObjectURL(picture.src);
      setPicture({ ...uploaded, src: URL.createObjectURL(file) });
      setCrop(undefined);
      setQuarter(0);
      setFine(0);
      setFound(null);
      setGlyphs([]);
      setResult(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy('');
    }
  }
  const chooseRef = useRef(choose);
  chooseRef.current = choose;

  // Paste a screenshot anywhere on the page (Ctrl+V / ⌘V).
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = [...(event.clipboardData?.files ?? [])].find((item) => item.type.startsWith('image/'));
      if (!file) return;
      event.preventDefault();
      void chooseRef.current(file);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);

  async function findText() {
    if (!picture) return;
    const current: PictureView = { pictureId: picture.pictureId, rotate: quarter + fine, ...(crop ? { crop } : {}) };
    setBusy('正在找字……');
    setError('');
    try {
      const answer = await findGlyphs(current);
      view.current = current;
      setFound(answer);
      setResult(null);
      setGlyphs(
        answer.lines.flatMap((line) =>
          line.glyphs.map((glyph) => ({
            key: glyphKey(),
            box: glyph.box,
            character: glyph.suggestions[0]?.character ?? '',
            suggestions: glyph.suggestions.map((s) => s.character),
          })),
        ),
      );
      setSelected(null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy('');
    }
  }

  useEffect(() => {
    if (!found) return;
    const image = new Image();
    image.onload = () => setPreparedImage(image);
    image.src = found.image;
  }, [found]);

  /** Asks the reader again for boxes that changed, and fills in their characters. */
  async function reread(changed: EditableGlyph[]) {
    if (!view.current || changed.length === 0) return;
    try {
      const { suggestions } = await readCharacters(
        view.current,
        changed.map((glyph) => glyph.box),
      );
      setGlyphs((list) =>
        list.map((glyph) => {
          const i = changed.findIndex((c) => c.key === glyph.key && c.box === glyph.box);
          if (i < 0) return glyph;
          const read = (suggestions[i] ?? []).map((s) => s.character);
          return { ...glyph, suggestions: read, character: read[0] ?? glyph.character };
        }),
      );
    } catch {
      // The person can still type the character.
    }
  }

  function changeBox(key: number, box: GlyphBox, done: boolean) {
    let changed: EditableGlyph | undefined;
    setGlyphs((list) =>
      list.map((glyph) => {
        if (glyph.key !== key) return glyph;
        changed = { ...glyph, box };
        return changed;
      }),
    );
    if (done && changed) void reread([changed]);
  }

  function dropBox(key: number) {
    setGlyphs((list) => list.filter((glyph) => glyph.key !== key));
    setSelected(null);
  }

  function mergeWithNext() {
    const i = glyphs.findIndex((glyph) => glyph.key === selected);
    const a = glyphs[i];
    const b = glyphs[i + 1];
    if (!a || !b) return;
    const merged = { key: glyphKey(), box: unionBox(a.box, b.box), character: '', suggestions: [] };
    setGlyphs([...glyphs.slice(0, i), merged, ...glyphs.slice(i + 2)]);
    setSelected(merged.key);
    void reread([merged]);
  }

  function split() {
    const i = glyphs.findIndex((glyph) => glyph.key === selected);
    const glyph = glyphs[i];
    if (!glyph) return;
    const [left, right] = splitBox(glyph.box);
    const parts = [left, right].map((box) => ({ key: glyphKey(), box, character: '', suggestions: [] }));
    setGlyphs([...glyphs.slice(0, i), ...parts, ...glyphs.slice(i + 1)]);
    setSelected(parts[0]?.key ?? null);
    void reread(parts);
  }

  function addBox() {
    if (!found) return;
    const glyph = { key: glyphKey(), box: newBox(glyphs, found), character: '', suggestions: [] };
    setGlyphs([...glyphs, glyph]);
    setSelected(glyph.key);
  }

  async function identify() {
    if (!view.current || glyphs.length === 0) return;
    setBusy('正在比对字体库……');
    setError('');
    try {
      setResult(
        await matchFonts(
          view.current,
          glyphs.map((glyph) => ({ box: glyph.box, ...(glyph.character ? { character: glyph.character } : {}) })),
        ),
      );
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy('');
    }
  }

  const selectedIndex = glyphs.findIndex((glyph) => glyph.key === selected);
  return (
    <div className="identify">
      <ToolStep id="identify-step-picture" number={1} title="上传图片">
        <fieldset
          className="identify-drop"
          onDragOver={(event) => event.preventDefault()}
          onDrop={(event) => {
            event.preventDefault();
            void choose(event.dataTransfer.files[0]);
          }}
        >
          <legend className="visually-hidden">选择、拖入或粘贴图片</legend>
          <label className="btn btn--primary" htmlFor={ids.file}>
            选择图片
          </label>
          <input
            id={ids.file}
            className="visually-hidden"
            type="file"
            accept={ACCEPT}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          <p className="pixel-hint">
            PNG、JPEG、WebP 或手机照片，最大 10 MB；也可以把图片拖到这里，或直接按 Ctrl+V 粘贴截图。
          </p>
        </fieldset>
        {picture && (
          <>
            <PictureCropper
              src={picture.src}
              width={picture.width}
              height={picture.height}
              crop={crop}
              onCrop={setCrop}
              quarter={quarter}
              onQuarter={setQuarter}
              fine={fine}
              onFine={setFine}
            />
            <button type="button" className="btn btn--primary" disabled={busy !== ''} onClick={() => void findText()}>
              找出文字
            </button>
          </>
        )}
      </ToolStep>

      {found && (
        <ToolStep id="identify-step-glyphs" number={2} title="确认字框和文字">
          <p className="pixel-hint">
            找到 {glyphs.length} 个字{found.angle ? `，已自动摆正 ${found.angle}°` : ''}
            。拖动字框调整位置，拖右下角改大小；选中一个字框后可以合并、拆分或删除。每个字下面是识别出的字，认错了请改正，不填也能识别。
          </p>
          <GlyphBoxEditor
            image={found.image}
            width={found.width}
            height={found.height}
            glyphs={glyphs}
            selected={selected}
            onSelect={setSelected}
            onChange={changeBox}
            onDrop={dropBox}
          />
          <div className="identify-toolbar">
            <button type="button" className="btn btn--sm" onClick={addBox}>
              添加字框
            </button>
            <button
              type="button"
              className="btn btn--sm"
              disabled={selectedIndex < 0 || selectedIndex >= glyphs.length - 1}
              onClick={mergeWithNext}
            >
              与后一个合并
            </button>
            <button type="button" className="btn btn--sm" disabled={selectedIndex < 0} onClick={split}>
              拆成两个
            </button>
            <button
              type="button"
              className="btn btn--sm btn--ghost"
              disabled={selectedIndex < 0}
              onClick={() => selected !== null && dropBox(selected)}
            >
              删除字框
            </button>
          </div>
          <ol className="identify-glyphs">
            {glyphs.map((glyph, i) => (
              <li key={glyph.key} className="identify-glyph" data-selected={glyph.key === selected || undefined}>
                <GlyphCrop image={preparedImage} box={glyph.box} />
                <label className="visually-hidden" htmlFor={`identify-char-${glyph.key}`}>
                  第 {i + 1} 个字
                </label>
                <input
                  id={`identify-char-${glyph.key}`}
                  className="input identify-glyph__input"
                  value={glyph.character}
                  maxLength={2}
                  onFocus={() => setSelected(glyph.key)}
                  onChange={(event) => {
                    const character = [...event.target.value.trim()].slice(-1).join('');
                    setGlyphs((list) => list.map((g) => (g.key === glyph.key ? { ...g, character } : g)));
                  }}
                />
                {glyph.suggestions.length > 1 && (
                  <span className="identify-glyph__suggestions">
                    {glyph.suggestions.slice(0, 4).map((suggestion) => (
                      <button
                        key={suggestion}
                        type="button"
                        className="identify-glyph__suggestion"
                        aria-label={`第 ${i + 1} 个字改为「${suggestion}」`}
                        onClick={() =>
                          setGlyphs((list) =>
                            list.map((g) => (g.key === glyph.key ? { ...g, character: suggestion } : g)),
                          )
                        }
                      >
                        {suggestion}
                      </button>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="btn btn--primary"
            disabled={busy !== '' || glyphs.length === 0}
            onClick={() => void identify()}
          >
            查找字体
          </button>
        </ToolStep>
      )}

      <p id={ids.status} className="tool-result__summary" aria-live="polite">
        {busy}
        {busy && (
          // Counted every second, so not announced.
          <span aria-hidden="true">
            {' '}
            <Elapsed since={busySince} />
          </span>
        )}
      </p>
      {error && (
        <p className="tool-error" role="alert">
          {error}
        </p>
      )}

      {result && (
        <section className="tool-result identify-result" aria-labelledby="identify-result-title">
          <h2 id="identify-result-title" className="tool-result__title">
            {result.inLibrary || result.candidates.length === 0 ? '候选字体' : '库中没有完全一致的字体'}
          </h2>
          {!result.inLibrary && result.candidates.length > 0 && (
            <p className="identify-result__absent">
              字体库的 {result.faces}{' '}
              款字体都和图片里的字形有明显差别，这款字体可能还没有收录。下面是字形最接近的字体，可以作为替代参考。
            </p>
          )}
          <p className="tool-result__summary">
            用「{result.sample}」比对了字体库的 {result.faces} 款字体，用时 {(result.elapsedMs / 1000).toFixed(1)} 秒。
          </p>
          <Candidates result={result} image={preparedImage} />
        </section>
      )}
    </div>
  );
}
