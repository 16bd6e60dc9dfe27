import { type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import { getFontList } from '../../api/fonts.ts';
import {
  type CloudReport,
  type CloudRequest,
  type CloudTemplateImage,
  type CloudTemplateType,
  type CloudWord,
  cutWords,
  drawCloud,
  getTemplateImages,
  getTemplateTypes,
  uploadMask,
} from '../../api/word-cloud.ts';
import {
  boldestFace,
  CLOUD_SAMPLE,
  CLOUD_SAMPLE_SIZES,
  CLOUD_SAMPLE_SRCSET,
  CLOUD_SAMPLE_URL,
  type CloudOrientation,
  type CloudPalette,
  type CloudShape,
} from '../../contract/word-cloud.ts';
import { takeEarlyInput } from '../../lib/early-clicks.ts';
import { debounceAfterFirst } from '../fonts/font-previews.ts';
import { Elapsed } from './Elapsed.tsx';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { isAbort, messageOf, type PickedFont } from './picked-font.ts';
import { Segmented } from './Segmented.tsx';
import { ToolStep } from './ToolStep.tsx';

const MAX_TEXT = 50_000;

const PALETTES: Array<{ value: CloudPalette | 'picture'; label: string; colors: string[] }> = [
  { value: 'vermilion', label: '朱砂', colors: ['#b8261c', '#d9452f', '#e07a3f', '#3d2b26'] },
  { value: 'ink', label: '水墨', colors: ['#1f1f1f', '#5c5c5c', '#a3a3a3'] },
  { value: 'celadon', label: '青瓷', colors: ['#1f5e63', '#2f8a84', '#6fb3a6'] },
  { value: 'porcelain', label: '青花', colors: ['#1b3f8b', '#5b86d6', '#98b4e8'] },
  { value: 'autumn', label: '秋色', colors: ['#9c3d1c', '#e3a048', '#6f7d33'] },
  { value: 'spring', label: '春日', colors: ['#d3577a', '#7fb069', '#f4c95d'] },
  { value: 'neon', label: '霓虹', colors: ['#ff3d7f', '#2ee6d6', '#7c4dff'] },
  { value: 'picture', label: '取自图片', colors: [] },
];
const ORIENTATIONS: Array<{ value: CloudOrientation; label: string }> = [
  { value: 'horizontal', label: '全部横排' },
  { value: 'mixed', label: '横竖混排' },
  { value: 'free', label: '任意角度' },
];
const SIZES = [
  { label: '方形 1000 × 1000', width: 1000, height: 1000 },
  { label: '横幅 1920 × 1080', width: 1920, height: 1080 },
  { label: '竖版 1080 × 1920', width: 1080, height: 1920 },
  { label: '印刷 3000 × 3000', width: 3000, height: 3000 },
];
type ShapeMode = 'template' | 'character' | 'picture' | 'none';
const SHAPE_MODES: Array<{ value: ShapeMode; label: string }> = [
  { value: 'template', label: '形状模板' },
  { value: 'character', label: '一个字' },
  { value: 'picture', label: '上传图片' },
  { value: 'none', label: '整张画布' },
];

/** A canvas side in pixels, taken only when it is a whole number from 600 to 4000. */
function SideInput({ label, value, onChange }: { label: string; value: number; onChange: (value: number) => void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input pixel-number"
        type="number"
        min={600}
        max={4000}
        step={10}
        value={value}
        onChange={(event) => {
          const next = Math.round(Number(event.target.value));
          if (next >= 600 && next <= 4000) onChange(next);
        }}
      />
    </>
  );
}

function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The word-cloud generator: text cut into weighted words (editable), a shape (a template, one
 * character of a library font, or an uploaded picture), the font and colours, and a live preview
 * drawn on the server; the same layout downloads as PNG or SVG.
 */
/**
 * Whether a request is the one the page opened on (CLOUD_SAMPLE in the default face), which the
 * server drew into the page's HTML (renderSample builds it the same way).
 */
function isSampleRequest(request: CloudRequest, text: string, limit: number, defaultFont: PickedFont | null): boolean {
  return (
    text === CLOUD_SAMPLE.text &&
    limit === CLOUD_SAMPLE.limit &&
    defaultFont !== null &&
    JSON.stringify(request.font) === JSON.stringify(defaultFont.source) &&
    request.shape?.kind === 'template' &&
    request.shape.id === CLOUD_SAMPLE.templateId &&
    request.threshold === CLOUD_SAMPLE.threshold / 100 &&
    request.orientation === CLOUD_SAMPLE.orientation &&
    request.verticalText === CLOUD_SAMPLE.verticalText &&
    request.colors === CLOUD_SAMPLE.palette &&
    request.background === CLOUD_SAMPLE.background &&
    request.width === CLOUD_SAMPLE.width &&
    request.height === CLOUD_SAMPLE.height &&
    request.seed === CLOUD_SAMPLE.seed
  );
}

export default function WordCloudTool(): ReactElement {
  const ids = {
    text: useId(),
    limit: useId(),
    character: useId(),
    threshold: useId(),
    background: useId(),
    mask: useId(),
    status: useId(),
    newWord: useId(),
  };
  const [newWord, setNewWord] = useState('');
  const [text, setText] = useState<string>(CLOUD_SAMPLE.text);
  const [limit, setLimit] = useState<number>(CLOUD_SAMPLE.limit);
  const [words, setWords] = useState<CloudWord[]>([]);
  const [wordsError, setWordsError] = useState('');
  const [defaultFont, setDefaultFont] = useState<PickedFont | null>(null);
  const [pickedFont, setPickedFont] = useState<PickedFont | null>(null);
  const [types, setTypes] = useState<CloudTemplateType[]>([]);
  const [templates, setTemplates] = useState<CloudTemplateImage[]>([]);
  const [typeId, setTypeId] = useState<number | null>(null);
  const [shapeMode, setShapeMode] = useState<ShapeMode>('template');
  const [templateId, setTemplateId] = useState<number>(CLOUD_SAMPLE.templateId);
  const [character, setCharacter] = useState('字');
  const [mask, setMask] = useState<{ maskId: string; name: string } | null>(null);
  const [maskError, setMaskError] = useState('');
  const [threshold, setThreshold] = useState<number>(CLOUD_SAMPLE.threshold);
  const [palette, setPalette] = useState<CloudPalette | 'picture'>(CLOUD_SAMPLE.palette);
  const [orientation, setOrientation] = useState<CloudOrientation>(CLOUD_SAMPLE.orientation);
  const [verticalText, setVerticalText] = useState<boolean>(CLOUD_SAMPLE.verticalText);
  const [background, setBackground] = useState<string>(CLOUD_SAMPLE.background);
  const [transparent, setTransparent] = useState(false);
  const [size, setSize] = useState<{ width: number; height: number }>({
    width: CLOUD_SAMPLE.width,
    height: CLOUD_SAMPLE.height,
  });
  const [seed, setSeed] = useState<number>(CLOUD_SAMPLE.seed);
  const [image, setImage] = useState<{ url: string; report: CloudReport; words: string[] } | null>(null);
  const [drawing, setDrawing] = useState(false);
  // When the drawing under way began (performance.now()), for the time spent.
  const [drawingSince, setDrawingSince] = useState(0);
  const [sampleShown, setSampleShown] = useState(true);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState('');
  const controller = useRef<AbortController | null>(null);
  const font = pickedFont ?? defaultFont;

  // Text pasted before this script arrived is kept: hydrating put the sample back in the field,
  // and the inline listener in Head.astro kept what was typed.
  useEffect(() => {
    const typed = takeEarlyInput('wordcloud-text');
    if (typed !== undefined) {
      setText(typed);
      setSampleShown(false);
    }
  }, []);

  // The most downloaded family, in its boldest regular weight, until the person picks one.
  useEffect(() => {
    getFontList({ size: 1 })
      .then((page) => {
        const family = page.records[0];
        const child = family && boldestFace(family.childFontResource);
        if (family && child?.id !== undefined) {
          setDefaultFont({ source: { fontId: child.id }, label: family.familyName, faces: 1 });
        }
      })
      .catch(() => undefined);
    getTemplateTypes()
      .then((page) => {
        setTypes(page.records);
        setTypeId(page.records[0]?.id ?? null);
      })
      .catch(() => undefined);
    getTemplateImages()
      .then(setTemplates)
      .catch(() => undefined);
  }, []);

  // The words of the sample at once, then cut again as the text or the count changes.
  const cutRun = useRef(0);
  const cut = useMemo(
    () =>
      debounceAfterFirst((value: string, count: number) => {
        if (!value.trim()) {
          setWords([]);
          setWordsError('请粘贴要做成词云的文字');
          return;
        }
        // Only the answer for the latest text counts; an earlier one arriving late is dropped.
        const run = ++cutRun.current;
        cutWords(value, count)
          .then((answer) => {
            if (run !== cutRun.current) return;
            setWords(answer.words);
            setWordsError(answer.words.length === 0 ? '这段文字里没有可用的词（标点、数字和虚词不计）' : '');
          })
          .catch((failure: unknown) => {
            if (run === cutRun.current) setWordsError(messageOf(failure, '分词失败，请稍后再试'));
          });
      }, 400),
    [],
  );
  useEffect(() => cut(text, limit), [text, limit, cut]);

  const shape: CloudShape | null =
    shapeMode === 'template'
      ? { kind: 'template', id: templateId }
      : shapeMode === 'character'
        ? [...character.trim()].length === 1
          ? { kind: 'character', character: character.trim() }
          : null
        : shapeMode === 'picture'
          ? mask
            ? { kind: 'picture', maskId: mask.maskId }
            : null
          : { kind: 'none' };
  const colors =
    palette === 'picture' && (shapeMode === 'template' || shapeMode === 'picture')
      ? 'picture'
      : palette === 'picture'
        ? 'vermilion'
        : palette;

  const request: CloudRequest | null =
    font && shape && words.length > 0
      ? {
          words,
          font: font.source,
          shape,
          threshold: threshold / 100,
          orientation,
          verticalText,
          colors,
          background: transparent ? 'transparent' : background,
          width: size.width,
          height: size.height,
          seed,
        }
      : null;
  const requestKey = JSON.stringify(request);

  const redraw = useMemo(
    () =>
      debounceAfterFirst((next: CloudRequest, sample: boolean) => {
        controller.current?.abort();
        const current = new AbortController();
        controller.current = current;
        setDrawing(true);
        setDrawingSince(performance.now());
        drawCloud({ ...next, format: 'png' }, current.signal)
          .then(({ image: blob, report }) => {
            setImage((old) => {
              if (old?.url.startsWith('blob:')) URL.revokeObjectURL(old.url);
              // The sample's request draws the picture the page already shows: it keeps that picture's
              // address, so nothing is loaded or painted again (nor counted as a later, largest paint).
              const url = sample ? CLOUD_SAMPLE_URL : URL.createObjectURL(blob);
              // The picture's description names the words it was drawn from, not the words typed since.
              return { url, report, words: (next.words ?? []).map((item) => item.text) };
            });
            setError('');
          })
          .catch((failure: unknown) => {
            if (!isAbort(failure)) setError(messageOf(failure, '生成失败，请稍后再试'));
          })
          .finally(() => {
            if (controller.current === current) setDrawing(false);
          });
      }, 350),
    [],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the request's JSON is its identity
  useEffect(() => {
    if (request) redraw(request, sampleShown && isSampleRequest(request, text, limit, defaultFont));
  }, [requestKey, redraw]);

  async function save(format: 'png' | 'svg' | 'svg-outlines'): Promise<void> {
    if (!request) return;
    setSaving(format);
    try {
      const { image: blob } = await drawCloud({ ...request, format });
      download(blob, format === 'png' ? '词云.png' : format === 'svg' ? '词云.svg' : '词云-轮廓.svg');
    } catch (failure) {
      setError(messageOf(failure, '下载失败，请稍后再试'));
    } finally {
      setSaving('');
    }
  }

  async function chooseMask(file: File | undefined): Promise<void> {
    if (!file) return;
    setMaskError('');
    try {
      const uploaded = await uploadMask(file);
      setMask({ maskId: uploaded.maskId, name: file.name });
    } catch (failure) {
      setMask(null);
      setMaskError(messageOf(failure, '图片上传失败，请稍后再试'));
    }
  }

  function setWeight(index: number, weight: number): void {
    setWords((list) => list.map((item, i) => (i === index ? { ...item, weight } : item)));
  }

  const visibleTemplates = templates.filter((item) => typeId === null || item.typeId === typeId);
  const report = image?.report;

  return (
    <div className="tool-layout wordcloud">
      <div className="tool-steps">
        <ToolStep id="cloud-step-words" number={1} title="文字与词表">
          <div className="tool-field">
            <div className="tool-field__row">
              <label className="tool-field__label" htmlFor={ids.text}>
                粘贴文字（中文、英文都可以）
              </label>
              <span className="tool-field__count">
                {text.length.toLocaleString('zh-CN')} / {MAX_TEXT.toLocaleString('zh-CN')}
              </span>
            </div>
            <textarea
              id={ids.text}
              className="input wordcloud__text"
              data-early-input="wordcloud-text"
              rows={6}
              maxLength={MAX_TEXT}
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.limit}>
              最多使用出现最多的 {limit} 个词
            </label>
            <input
              id={ids.limit}
              type="range"
              min={20}
              max={500}
              step={10}
              value={limit}
              onChange={(event) => setLimit(Number(event.target.value))}
            />
          </div>
          {wordsError && (
            <p className="tool-error" role="alert">
              {wordsError}
            </p>
          )}
          {words.length > 0 && (
            <details className="wordcloud__words">
              <summary>
                查看和调整词表（{words.length} 个词，前几位：
                {words
                  .slice(0, 5)
                  .map((item) => item.text)
                  .join('、')}
                ）
              </summary>
              <p className="pixel-hint">
                权重越大，字越大。把权重调到最小可以让一个词不那么显眼，点「去掉」则不再使用它。
              </p>
              <ol className="wordcloud__word-list">
                {words.slice(0, 60).map((item, index) => (
                  <li key={item.text} className="wordcloud__word">
                    <span className="wordcloud__word-text">{item.text}</span>
                    <input
                      type="range"
                      min={1}
                      max={100}
                      value={Math.round(item.weight * 100)}
                      aria-label={`「${item.text}」的权重`}
                      onChange={(event) => setWeight(index, Number(event.target.value) / 100)}
                    />
                    <button
                      type="button"
                      className="btn btn--ghost btn--sm"
                      aria-label={`去掉「${item.text}」`}
                      onClick={() => setWords((list) => list.filter((_, i) => i !== index))}
                    >
                      去掉
                    </button>
                  </li>
                ))}
              </ol>
              <form
                className="wordcloud__row wordcloud__add"
                onSubmit={(event) => {
                  event.preventDefault();
                  const word = newWord.trim();
                  if (!word || word.length > 20 || words.some((item) => item.text === word)) return;
                  setWords((list) => [{ text: word, weight: 1 }, ...list]);
                  setNewWord('');
                }}
              >
                <label htmlFor={ids.newWord}>添加一个词</label>
                <input
                  id={ids.newWord}
                  className="input pixel-number"
                  value={newWord}
                  maxLength={20}
                  onChange={(event) => setNewWord(event.target.value)}
                />
                <button type="submit" className="btn btn--sm">
                  加入词表
                </button>
                <span className="pixel-hint">新加的词排在最前、权重最大；改动文字会重新分词。</span>
              </form>
            </details>
          )}
        </ToolStep>

        <ToolStep id="cloud-step-shape" number={2} title="形状">
          <Segmented
            legend="形状来源"
            name="cloud-shape-mode"
            options={SHAPE_MODES}
            value={shapeMode}
            onChange={setShapeMode}
          />
          {shapeMode === 'template' && (
            <>
              <Segmented
                legend="模板分类"
                name="cloud-template-type"
                options={types.map((type) => ({ value: type.id, label: type.name }))}
                value={typeId ?? 0}
                onChange={setTypeId}
              />
              <fieldset className="wordcloud__templates">
                <legend className="visually-hidden">形状模板</legend>
                {visibleTemplates.map((item) => (
                  <label key={item.id} className="wordcloud__template">
                    <input
                      type="radio"
                      name="cloud-template"
                      checked={templateId === item.id}
                      onChange={() => setTemplateId(item.id)}
                    />
                    <span className="wordcloud__tile">
                      <img src={item.url} alt="" width={56} height={56} loading="lazy" />
                      {item.name}
                    </span>
                  </label>
                ))}
              </fieldset>
            </>
          )}
          {shapeMode === 'character' && (
            <div className="tool-field pixel-inline">
              <label className="tool-field__label" htmlFor={ids.character}>
                用哪个字做形状
              </label>
              <input
                id={ids.character}
                className="input wordcloud__character"
                value={character}
                maxLength={2}
                onChange={(event) => setCharacter(event.target.value)}
              />
              <span className="pixel-hint">用下面选的字体写出这个字，例如「福」「字」「春」</span>
            </div>
          )}
          {shapeMode === 'picture' && (
            <div className="tool-field">
              <label className="tool-field__label" htmlFor={ids.mask}>
                上传形状图片（PNG、JPEG、WebP 或 SVG，10 MB 以内）
              </label>
              <input
                id={ids.mask}
                type="file"
                accept="image/png,image/jpeg,image/webp,image/svg+xml"
                onChange={(event) => void chooseMask(event.target.files?.[0])}
              />
              <p className="pixel-hint">
                {mask ? `正在使用：${mask.name}。` : ''}透明背景的图片按不透明部分取形；不透明的图片按深色部分取形。
              </p>
              {maskError && (
                <p className="tool-error" role="alert">
                  {maskError}
                </p>
              )}
              <label className="tool-field__label" htmlFor={ids.threshold}>
                深浅阈值 {threshold}%
              </label>
              <input
                id={ids.threshold}
                type="range"
                min={5}
                max={95}
                step={5}
                value={threshold}
                onChange={(event) => setThreshold(Number(event.target.value))}
              />
            </div>
          )}
        </ToolStep>

        <ToolStep id="cloud-step-style" number={3} title="字体与样式">
          <FontSourcePicker initialMode="library" onChange={setPickedFont} />
          {!pickedFont && defaultFont && <p className="pixel-hint">未选择时使用「{defaultFont.label}」。</p>}
          <fieldset className="wordcloud__palettes">
            <legend className="tool-field__label">配色</legend>
            {PALETTES.map((option) => (
              <label key={option.value} className="wordcloud__palette">
                <input
                  type="radio"
                  name="cloud-palette"
                  checked={palette === option.value}
                  onChange={() => setPalette(option.value)}
                />
                <span className="wordcloud__chip">
                  <span className="wordcloud__swatches" aria-hidden="true">
                    {option.colors.map((color) => (
                      <i key={color} style={{ background: color }} />
                    ))}
                  </span>
                  {option.label}
                </span>
              </label>
            ))}
          </fieldset>
          {palette === 'picture' && shapeMode !== 'template' && shapeMode !== 'picture' && (
            <p className="pixel-hint">「取自图片」配色需要形状模板或上传的图片，现在先用朱砂配色。</p>
          )}
          <Segmented
            legend="文字方向"
            showLegend
            name="cloud-orientation"
            options={ORIENTATIONS}
            value={orientation}
            onChange={setOrientation}
          />
          {orientation === 'mixed' && (
            <label className="wordcloud__check">
              <input
                type="checkbox"
                checked={verticalText}
                onChange={(event) => setVerticalText(event.target.checked)}
              />
              竖着的中文词按竖排书写（字头朝上），而不是整体转 90°
            </label>
          )}
          <div className="wordcloud__row">
            <label className="wordcloud__check" htmlFor={ids.background}>
              背景色
              <input
                id={ids.background}
                type="color"
                value={background}
                disabled={transparent}
                onChange={(event) => setBackground(event.target.value)}
              />
            </label>
            <label className="wordcloud__check">
              <input type="checkbox" checked={transparent} onChange={(event) => setTransparent(event.target.checked)} />
              透明背景
            </label>
          </div>
          <fieldset className="wordcloud__sizes">
            <legend className="tool-field__label">画布尺寸（像素）</legend>
            <div className="wordcloud__row">
              {SIZES.map((option) => (
                <button
                  key={option.label}
                  type="button"
                  className="btn btn--ghost btn--sm"
                  aria-pressed={size.width === option.width && size.height === option.height}
                  onClick={() => setSize({ width: option.width, height: option.height })}
                >
                  {option.label}
                </button>
              ))}
            </div>
            <div className="wordcloud__row">
              <SideInput label="宽" value={size.width} onChange={(width) => setSize((s) => ({ ...s, width }))} />
              <SideInput label="高" value={size.height} onChange={(height) => setSize((s) => ({ ...s, height }))} />
              <span className="pixel-hint">600 到 4000</span>
            </div>
          </fieldset>
        </ToolStep>
      </div>

      <section className="tool-result wordcloud__result" aria-labelledby="cloud-result-title">
        <h2 id="cloud-result-title" className="tool-result__title">
          预览与下载
        </h2>
        <div
          className="wordcloud__preview"
          // A screen reader hears that the picture is being redrawn; the old one stays, faded, until the new arrives.
          aria-busy={drawing || undefined}
          data-transparent={transparent ? '' : undefined}
        >
          {image ? (
            <img
              className="wordcloud__image"
              src={image.url}
              // The sample keeps the sizes it was first painted from, so it is not loaded again.
              {...(image.url === CLOUD_SAMPLE_URL ? { srcSet: CLOUD_SAMPLE_SRCSET, sizes: CLOUD_SAMPLE_SIZES } : {})}
              alt={`词云预览：${image.words.slice(0, 8).join('、')}等`}
              width={size.width}
              height={size.height}
            />
          ) : sampleShown ? (
            // The sample as the server drew it, in the page's HTML: it paints before any script runs,
            // and the island's own first drawing of the same request replaces it with the same picture.
            <img
              className="wordcloud__image"
              src={CLOUD_SAMPLE_URL}
              srcSet={CLOUD_SAMPLE_SRCSET}
              sizes={CLOUD_SAMPLE_SIZES}
              alt="词云预览：示例文字“字体设计是一门慢手艺”排成的词云"
              width={CLOUD_SAMPLE.width}
              height={CLOUD_SAMPLE.height}
              fetchPriority="high"
              onError={() => setSampleShown(false)}
            />
          ) : (
            <p className="tool-result__empty">{font ? '正在生成词云……' : '正在准备字体……'}</p>
          )}
        </div>
        <p id={ids.status} className="tool-result__summary" aria-live="polite">
          {drawing
            ? '正在重新排版……'
            : error
              ? ''
              : report
                ? `已排入 ${report.placed} 个词${report.dropped.length ? `，${report.dropped.length} 个词放不下` : ''}${report.missing.length ? `；这款字体缺字，未使用：${report.missing.slice(0, 8).join('、')}${report.missing.length > 8 ? ' 等' : ''}` : ''}。`
                : ''}
          {drawing && (
            // Counted every second, so not announced.
            <span aria-hidden="true">
              {' '}
              <Elapsed since={drawingSince} />
            </span>
          )}
        </p>
        {error && (
          <p className="tool-error" role="alert">
            {error}
          </p>
        )}
        <div className="wordcloud__actions">
          <button type="button" className="btn btn--ghost" disabled={!request} onClick={() => setSeed((s) => s + 1)}>
            换一种排列
          </button>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!request || saving !== ''}
            onClick={() => void save('png')}
          >
            {saving === 'png' ? '正在准备……' : '下载 PNG'}
          </button>
          <button type="button" className="btn" disabled={!request || saving !== ''} onClick={() => void save('svg')}>
            {saving === 'svg' ? '正在准备……' : '下载 SVG（文字可编辑）'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!request || saving !== ''}
            onClick={() => void save('svg-outlines')}
          >
            {saving === 'svg-outlines' ? '正在准备……' : '下载 SVG（转曲）'}
          </button>
        </div>
        <p className="pixel-hint">
          下载的图片与预览排版相同。可编辑的 SVG 内嵌了只含这些字的网页字体；转曲版把文字变成路径，适合印刷和刻字。
        </p>
      </section>
    </div>
  );
}
