import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  getPixelProject,
  type PixelEdit,
  type PixelOptions,
  type PixelPreview,
  previewPixelFont,
  type SubsetCharset,
  savePixelProject,
  startPixelFont,
} from '../../api/font-tools.ts';
import { showToast } from '../../stores/toast.ts';
import { $token } from '../../stores/user.ts';
import { debounce } from '../fonts/font-previews.ts';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { type CheckOption, OptionChecks } from './OptionChecks.tsx';
import { PixelEditor } from './PixelEditor.tsx';
import type { PickedFont } from './picked-font.ts';
import { isAbort, messageOf } from './picked-font.ts';
import { ResultFiles } from './ResultFiles.tsx';
import { Segmented } from './Segmented.tsx';
import { ToolResult } from './ToolResult.tsx';
import { ToolRun } from './ToolRun.tsx';
import { ToolStep } from './ToolStep.tsx';
import { useToolJob } from './use-tool-job.ts';

const GRID_PRESETS = [
  { grid: 12, hint: '小字号屏显' },
  { grid: 16, hint: '经典点阵字' },
  { grid: 24, hint: '清晰的大字' },
];
const SHAPES: Array<{ value: PixelOptions['shape']; label: string }> = [
  { value: 'square', label: '方块' },
  { value: 'round', label: '圆点' },
  { value: 'gapped', label: '留缝方块' },
];
const CHARSETS: Array<CheckOption<SubsetCharset>> = [
  { value: 'common3500', name: '3500 常用字', hint: '通用规范汉字表一级字' },
  { value: 'gb2312', name: 'GB2312', hint: '6763 个简体汉字及符号' },
  { value: 'big5', name: 'Big5', hint: '13053 个繁体汉字' },
  { value: 'latin', name: '基本拉丁', hint: '英文字母、数字与标点' },
];
const WEIGHTS = [
  { value: 300, label: '细体 300' },
  { value: 400, label: '常规 400' },
  { value: 500, label: '中等 500' },
  { value: 700, label: '粗体 700' },
];
const SAMPLE = '造字联盟像素字体 Pixel 16';

/** The stroke slider's far end (threshold 0.05). */
const MAX_WEIGHT_BIAS = 140;
/** The slider position of a threshold, on its steps of 5. */
const biasOf = (threshold: number) =>
  Math.max(0, Math.min(MAX_WEIGHT_BIAS, Math.round(((0.75 - threshold) / 0.5) * 20) * 5));

/** A key for the edits of one font at one grid size, as the browser keeps them. */
const editsKey = (font: PickedFont, grid: number) =>
  `pixel-edits:${'fontId' in font.source ? `font-${font.source.fontId}` : `file-${font.source.fileId}`}:${grid}`;

function loadEdits(key: string): Map<number, PixelEdit> {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? '[]') as PixelEdit[];
    return new Map(stored.map((edit) => [edit.codePoint, edit]));
  } catch {
    return new Map();
  }
}

interface Step {
  codePoint: number;
  before: PixelEdit | undefined;
  after: PixelEdit | undefined;
}

/**
 * The pixel-font maker: a font, the grid, stroke weight and pixel shape, a live preview whose
 * glyphs can be redrawn by hand, then the characters and names of the font to make. Edits are kept
 * in this browser per font and grid size, and every preview and the final font use them.
 */
export default function PixelTool(): ReactElement {
  const [font, setFont] = useState<PickedFont | null>(null);
  const [grid, setGrid] = useState(16);
  const [weightBias, setWeightBias] = useState(50);
  const [shape, setShape] = useState<PixelOptions['shape']>('square');
  const [text, setText] = useState(SAMPLE);
  const [preview, setPreview] = useState<PixelPreview | null>(null);
  const [previewError, setPreviewError] = useState('');
  const [edits, setEdits] = useState<Map<number, PixelEdit>>(new Map());
  const [selected, setSelected] = useState<number | null>(null);
  const [history, setHistory] = useState<{ undo: Step[]; redo: Step[] }>({ undo: [], redo: [] });
  const [charsets, setCharsets] = useState<Set<SubsetCharset>>(new Set(['gb2312', 'latin']));
  const [extra, setExtra] = useState('');
  const [family, setFamily] = useState('');
  const [weight, setWeight] = useState(400);
  const [project, setProject] = useState<{ id?: number; name: string }>({ name: '' });
  const [saving, setSaving] = useState(false);
  const token = useStore($token);
  const job = useToolJob();
  const ids = {
    text: useId(),
    grid: useId(),
    weight: useId(),
    family: useId(),
    fontWeight: useId(),
    extra: useId(),
    project: useId(),
  };
  const controller = useRef<AbortController | null>(null);

  // Bias 0–140: 50 is the outline as drawn; higher fills cells with less coverage (bolder strokes).
  // Past 100 the threshold goes down to 0.05, for hairline faces on small grids.
  const threshold = Math.round((0.75 - (weightBias / 100) * 0.5) * 100) / 100;
  const options: PixelOptions = useMemo(() => ({ grid, threshold, shape }), [grid, threshold, shape]);
  const key = font ? editsKey(font, grid) : '';

  // A project opened from the user centre (?project=<id>) brings back everything it saved.
  useEffect(() => {
    const id = Number(new URLSearchParams(window.location.search).get('project'));
    if (!Number.isInteger(id) || id < 1) return;
    getPixelProject(id)
      .then(({ id: projectId, name, data }) => {
        setProject({ id: projectId, name });
        setGrid(data.options.grid);
        setWeightBias(biasOf(data.options.threshold));
        setShape(data.options.shape);
        setCharsets(new Set(data.charsets));
        setExtra(data.text);
        setFamily(data.family);
        setWeight(data.weight);
        if (data.source) {
          const opened: PickedFont = { source: data.source, label: data.sourceLabel, faces: 1 };
          localStorage.setItem(editsKey(opened, data.options.grid), JSON.stringify(data.edits));
          setFont(opened);
        } else {
          showToast(`项目用的是上传的字体「${data.sourceLabel}」，请重新上传它`, 'warning');
        }
      })
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    setEdits(key ? loadEdits(key) : new Map());
    setHistory({ undo: [], redo: [] });
  }, [key]);
  useEffect(() => {
    if (font) setFamily((name) => name || `${font.label}像素`);
  }, [font]);

  const refresh = useRef(
    debounce((request: Parameters<typeof previewPixelFont>[0]) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      previewPixelFont(request, current.signal)
        .then((answer) => {
          setPreview(answer);
          setPreviewError('');
        })
        .catch((error: unknown) => {
          if (!isAbort(error)) setPreviewError(messageOf(error, '预览失败，请稍后再试'));
        });
    }, 250),
  );
  useEffect(() => {
    if (!font || !text.trim()) return;
    refresh.current({ source: font.source, options, text: text.trim(), edits: [...edits.values()] });
  }, [font, options, text, edits]);

  const glyphOf = (codePoint: number): PixelEdit | undefined =>
    edits.get(codePoint) ?? preview?.glyphs.find((glyph) => glyph.codePoint === codePoint);
  const selectedGlyph = selected === null ? undefined : glyphOf(selected);

  /** The edits of this font and grid, in the page and in this browser (written as they change, so
   * switching font or grid never writes one grid's edits under another's key). */
  function keep(next: Map<number, PixelEdit>): void {
    setEdits(next);
    if (key) localStorage.setItem(key, JSON.stringify([...next.values()]));
  }

  function change(codePoint: number, after: PixelEdit | undefined): void {
    const before = edits.get(codePoint);
    const next = new Map(edits);
    if (after) next.set(codePoint, after);
    else next.delete(codePoint);
    keep(next);
    setHistory((h) => ({ undo: [...h.undo.slice(-199), { codePoint, before, after }], redo: [] }));
  }
  function replay(direction: 'undo' | 'redo'): void {
    const stack = history[direction];
    const step = stack.at(-1);
    if (!step) return;
    const value = direction === 'undo' ? step.before : step.after;
    const next = new Map(edits);
    if (value) next.set(step.codePoint, value);
    else next.delete(step.codePoint);
    keep(next);
    setSelected(step.codePoint);
    setHistory((h) =>
      direction === 'undo'
        ? { undo: h.undo.slice(0, -1), redo: [...h.redo, step] }
        : { undo: [...h.undo, step], redo: h.redo.slice(0, -1) },
    );
  }

  const working = job.phase === 'working';
  const blocker = !font
    ? '请先上传或选择一款字体'
    : charsets.size === 0 && !extra.trim()
      ? '请勾选字符集或输入要包含的文字'
      : !family.trim()
        ? '请填写字体名称'
        : '';

  async function saveProject(): Promise<void> {
    if (!font) return;
    const name = project.name.trim() || family.trim() || font.label;
    setSaving(true);
    try {
      const saved = await savePixelProject(
        {
          name,
          source: 'fontId' in font.source ? { fontId: font.source.fontId } : null,
          sourceLabel: font.label,
          options,
          charsets: [...charsets],
          text: extra,
          family: family.trim(),
          weight,
          edits: [...edits.values()],
        },
        project.id,
      );
      setProject({ id: saved.id, name: saved.name });
      showToast('项目已保存，可在个人中心的账户概览里找到', 'success');
    } catch {
      // The API client showed why.
    } finally {
      setSaving(false);
    }
  }

  function start(): void {
    if (!font) return;
    void job.run(
      () =>
        startPixelFont({
          source: font.source,
          options,
          edits: [...edits.values()],
          ...(charsets.size > 0 ? { charsets: CHARSETS.map((c) => c.value).filter((c) => charsets.has(c)) } : {}),
          ...(extra.trim() ? { text: extra.trim() } : {}),
          family: family.trim(),
          weight,
        }),
      '像素字体已生成',
    );
  }

  return (
    <div className="tool-layout">
      <div className="tool-steps">
        <ToolStep id="pixel-step-font" number={1} title="选择字体">
          <FontSourcePicker initialMode="library" onChange={setFont} />
        </ToolStep>

        <ToolStep id="pixel-step-grid" number={2} title="点阵与笔画">
          <p className="tool-field__label" aria-hidden="true">
            点阵尺寸（每个字的像素数）
          </p>
          <fieldset className="segmented pixel-grid-presets">
            <legend className="visually-hidden">点阵尺寸</legend>
            {GRID_PRESETS.map((preset) => (
              <label key={preset.grid} className="segmented__option">
                <input
                  type="radio"
                  name="pixel-grid"
                  checked={grid === preset.grid}
                  onChange={() => setGrid(preset.grid)}
                />
                <span>
                  {preset.grid} × {preset.grid}
                  <small className="pixel-grid-presets__hint">{preset.hint}</small>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="tool-field pixel-inline">
            <label className="tool-field__label" htmlFor={ids.grid}>
              自定义尺寸
            </label>
            <input
              id={ids.grid}
              className="input pixel-number"
              type="number"
              min={8}
              max={48}
              value={grid}
              onChange={(event) => {
                const value = Math.round(Number(event.target.value));
                if (value >= 8 && value <= 48) setGrid(value);
              }}
            />
            <span className="pixel-hint">8 到 48 像素</span>
          </div>
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.weight}>
              笔画粗细
            </label>
            <div className="pixel-inline">
              <span aria-hidden="true">细</span>
              <input
                id={ids.weight}
                type="range"
                min={0}
                max={MAX_WEIGHT_BIAS}
                step={5}
                value={weightBias}
                aria-valuetext={weightBias === 50 ? '标准' : weightBias > 50 ? '偏粗' : '偏细'}
                onChange={(event) => setWeightBias(Number(event.target.value))}
              />
              <span aria-hidden="true">粗</span>
            </div>
          </div>
          <Segmented
            legend="像素形状"
            showLegend
            name="pixel-shape"
            options={SHAPES}
            value={shape}
            onChange={setShape}
          />
        </ToolStep>

        <ToolStep id="pixel-step-preview" number={3} title="预览与修字">
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.text}>
              预览文字
            </label>
            <input
              id={ids.text}
              className="input"
              value={text}
              maxLength={40}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
          <div className="pixel-preview" aria-live="polite">
            {!font && <p className="pixel-hint">选择字体后，这里会按所选尺寸画出像素字。</p>}
            {font && previewError && (
              <p className="tool-error" role="alert">
                {previewError}
              </p>
            )}
            {font && preview && !previewError && (
              <>
                <img
                  className="pixel-preview__image"
                  src={preview.image}
                  width={preview.width}
                  height={preview.height}
                  alt={`像素字预览：${text.trim()}`}
                />
                {preview.missing && <p className="pixel-hint">这款字体里没有：{preview.missing}</p>}
              </>
            )}
          </div>
          {font && preview?.faint && !previewError && (
            <div className="pixel-faint" role="status">
              <p>{preview.faint.message}</p>
              <div className="pixel-faint__actions">
                {preview.faint.threshold !== undefined && (
                  <button
                    type="button"
                    className="btn"
                    onClick={() => setWeightBias(biasOf(preview.faint?.threshold ?? threshold))}
                  >
                    笔画调粗
                  </button>
                )}
                {preview.faint.grid !== undefined && (
                  <button type="button" className="btn" onClick={() => setGrid(preview.faint?.grid ?? grid)}>
                    改用 {preview.faint.grid} × {preview.faint.grid}
                  </button>
                )}
              </div>
            </div>
          )}
          {preview && preview.glyphs.length > 0 && (
            <fieldset className="pixel-glyphs">
              <legend className="tool-field__label">点一个字，逐个像素修改</legend>
              {preview.glyphs
                .filter((glyph) => !/\s/u.test(String.fromCodePoint(glyph.codePoint)))
                .map((glyph) => {
                  const character = String.fromCodePoint(glyph.codePoint);
                  return (
                    <button
                      key={glyph.codePoint}
                      type="button"
                      className="pixel-glyphs__chip"
                      aria-pressed={selected === glyph.codePoint}
                      data-edited={edits.has(glyph.codePoint) ? '' : undefined}
                      onClick={() => setSelected(glyph.codePoint)}
                    >
                      {character}
                      {edits.has(glyph.codePoint) && <span className="visually-hidden">（已修改）</span>}
                    </button>
                  );
                })}
            </fieldset>
          )}
          {selectedGlyph && selected !== null && (
            <PixelEditor
              glyph={selectedGlyph}
              grid={grid}
              edited={edits.has(selected)}
              onChange={(bits) => change(selected, { codePoint: selected, width: selectedGlyph.width, bits })}
              onRevert={() => change(selected, undefined)}
              onUndo={() => replay('undo')}
              onRedo={() => replay('redo')}
              canUndo={history.undo.length > 0}
              canRedo={history.redo.length > 0}
            />
          )}
        </ToolStep>

        <ToolStep id="pixel-step-font-file" number={4} title="字符与命名">
          <OptionChecks legend="包含的字符集" showLegend options={CHARSETS} checked={charsets} onChange={setCharsets} />
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.extra}>
              另外包含的文字（可选）
            </label>
            <textarea
              id={ids.extra}
              className="input"
              rows={2}
              value={extra}
              onChange={(event) => setExtra(event.target.value)}
            />
          </div>
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.family}>
              字体名称
            </label>
            <input
              id={ids.family}
              className="input"
              value={family}
              maxLength={40}
              onChange={(event) => setFamily(event.target.value)}
            />
          </div>
          <div className="tool-field">
            <label className="tool-field__label" htmlFor={ids.fontWeight}>
              字重
            </label>
            <select
              id={ids.fontWeight}
              className="input"
              value={weight}
              onChange={(event) => setWeight(Number(event.target.value))}
            >
              {WEIGHTS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        </ToolStep>

        <ToolRun label="生成像素字体" workingLabel="正在生成…" blocker={blocker} working={working} onRun={start} />
        {font && (
          <div className="pixel-project">
            {token ? (
              <>
                <label className="tool-field__label" htmlFor={ids.project}>
                  项目名称
                </label>
                <input
                  id={ids.project}
                  className="input"
                  value={project.name}
                  maxLength={40}
                  placeholder={family.trim() || font.label}
                  onChange={(event) => setProject({ ...project, name: event.target.value })}
                />
                <button type="button" className="btn" disabled={saving} onClick={() => void saveProject()}>
                  {saving ? '正在保存…' : project.id ? '保存修改' : '保存为项目'}
                </button>
              </>
            ) : (
              <p className="pixel-hint">修改已保存在这个浏览器里。登录后可以把项目存到账户，换台电脑也能接着做。</p>
            )}
          </div>
        )}
      </div>

      <ToolResult
        id="pixel-result-title"
        title="生成结果"
        job={job}
        empty="生成后可以在这里下载 TTF、WOFF 和 WOFF2，或打包下载。GB2312 全套约需十几秒。"
        progressLabel="生成进度"
        workingStatus="正在生成像素字体"
      >
        {job.result && (
          <>
            <p className="pixel-result__summary">
              「{job.result.familyName}」共 {job.result.keptCount} 个字
              {job.result.missingCount ? `，源字体缺少的 ${job.result.missingCount} 个字未收入` : ''}。
            </p>
            <ResultFiles result={job.result} />
          </>
        )}
      </ToolResult>
    </div>
  );
}
