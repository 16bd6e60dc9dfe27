import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { type SubsetCharset, type SubsetFormat, startSubset } from '../../api/font-tools.ts';
import { formatCount } from '../../components/font/font-format.ts';
import { showToast } from '../../stores/toast.ts';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import type { PickedFont } from './picked-font.ts';
import { SubsetResult } from './SubsetResult.tsx';
import { distinctCharacters, readTextFile } from './subset-output.ts';
import { jobStatus, revealResult, useToolJob } from './use-tool-job.ts';

const CHARSETS: Array<{ value: SubsetCharset; name: string; hint: string }> = [
  { value: 'common3500', name: '3500 常用字', hint: '通用规范汉字表一级字' },
  { value: 'gb2312', name: 'GB2312', hint: '6763 个简体汉字及符号' },
  { value: 'big5', name: 'Big5', hint: '13053 个繁体汉字' },
  { value: 'latin', name: '基本拉丁', hint: '英文字母、数字与标点' },
];

const FORMATS: Array<{ value: SubsetFormat; name: string; hint: string }> = [
  { value: 'woff2', name: 'WOFF2', hint: '网页首选' },
  { value: 'woff', name: 'WOFF', hint: '兼容旧浏览器' },
  { value: 'ttf', name: 'TTF', hint: '桌面与小程序' },
];

/** Shown in the preview when the visitor chose character sets and typed nothing. */
const SAMPLE = '永和九年，岁在癸丑，暮春之初，会于会稽山阴之兰亭。ABC abc 0123';
/** Largest text file read in the browser (a long novel is about 2 MB). */
const MAX_TEXT_FILE = 5 * 1024 * 1024;

/** Adds or removes one value of a set held in state. */
function toggled<T>(set: Set<T>, value: T, on: boolean): Set<T> {
  const next = new Set(set);
  if (on) next.add(value);
  else next.delete(value);
  return next;
}

/**
 * The web-font subset generator: a font, the characters to keep (typed, read from a .txt file, or
 * whole character sets) and the formats; the result holds the files, the @font-face CSS and a
 * preview drawn with the produced font.
 */
export default function SubsetTool(): ReactElement {
  const [font, setFont] = useState<PickedFont | null>(null);
  const [text, setText] = useState('');
  const [charsets, setCharsets] = useState<Set<SubsetCharset>>(new Set());
  const [formats, setFormats] = useState<Set<SubsetFormat>>(new Set(['woff2']));
  const [submittedText, setSubmittedText] = useState('');
  const subset = useToolJob();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const textId = useId();
  const fileId = useId();
  const hintId = useId();

  const { reset } = subset;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new font makes the old result stale.
  useEffect(() => reset(), [font]);
  useEffect(() => {
    if (subset.phase === 'done') revealResult(resultHeading.current);
  }, [subset.phase]);

  async function loadTextFile(file: File | undefined): Promise<void> {
    if (!file) return;
    if (file.size > MAX_TEXT_FILE) {
      showToast('文本文件不能超过 5 MB', 'warning');
      return;
    }
    setText(await readTextFile(file));
  }

  const characters = distinctCharacters(text);
  const chosenFormats = FORMATS.map((option) => option.value).filter((value) => formats.has(value));
  const working = subset.phase === 'working';
  const blocker = !font
    ? '请先上传或选择一款字体'
    : characters === 0 && charsets.size === 0
      ? '请输入要保留的文字，或勾选字符集'
      : chosenFormats.length === 0
        ? '请至少选择一种格式'
        : '';

  function start(): void {
    if (!font) return;
    const kept = text.trim();
    setSubmittedText(kept ? [...kept].slice(0, 200).join('') : SAMPLE);
    void subset.run(
      () =>
        startSubset({
          source: font.source,
          ...(kept ? { text: kept } : {}),
          ...(charsets.size > 0 ? { charsets: CHARSETS.map((c) => c.value).filter((c) => charsets.has(c)) } : {}),
          formats: chosenFormats,
        }),
      '子集已生成',
    );
  }

  return (
    <div className="tool-layout">
      <div className="tool-steps">
        <section className="tool-step" aria-labelledby="subset-step-font">
          <h2 id="subset-step-font" className="tool-step__title">
            <span className="tool-step__number">1</span>选择字体
          </h2>
          <FontSourcePicker onChange={setFont} />
        </section>

        <section className="tool-step" aria-labelledby="subset-step-text">
          <h2 id="subset-step-text" className="tool-step__title">
            <span className="tool-step__number">2</span>要保留的文字
          </h2>
          <div className="tool-field">
            <div className="tool-field__row">
              <label className="tool-field__label" htmlFor={textId}>
                输入或粘贴文字
              </label>
              <span className="tool-field__count" aria-live="polite">
                {formatCount(characters)} 个不同的字符
              </span>
            </div>
            <textarea
              id={textId}
              className="input subset-text"
              rows={5}
              value={text}
              placeholder="例如网页标题、导航和按钮上的文字；重复的字只算一次"
              onChange={(event) => setText(event.target.value)}
            />
            <div className="subset-text__actions">
              <input
                id={fileId}
                className="visually-hidden subset-text__file"
                type="file"
                accept=".txt,text/plain"
                onChange={(event) => {
                  void loadTextFile(event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
              <label htmlFor={fileId} className="btn">
                导入 .txt 文件
              </label>
              {text && (
                <button type="button" className="btn btn--ghost" onClick={() => setText('')}>
                  清空
                </button>
              )}
            </div>
          </div>
          <fieldset className="tool-fieldset">
            <legend className="tool-field__label">再加上整套字符（可选）</legend>
            <div className="format-options">
              {CHARSETS.map((option) => (
                <label key={option.value} className="format-option">
                  <input
                    type="checkbox"
                    checked={charsets.has(option.value)}
                    onChange={(event) => setCharsets((set) => toggled(set, option.value, event.target.checked))}
                  />
                  <span className="format-option__name">{option.name}</span>
                  <span className="format-option__hint">{option.hint}</span>
                </label>
              ))}
            </div>
          </fieldset>
        </section>

        <section className="tool-step" aria-labelledby="subset-step-formats">
          <h2 id="subset-step-formats" className="tool-step__title">
            <span className="tool-step__number">3</span>输出格式
          </h2>
          <fieldset className="format-options format-options--compact">
            <legend className="visually-hidden">要生成的格式（可多选）</legend>
            {FORMATS.map((option) => (
              <label key={option.value} className="format-option">
                <input
                  type="checkbox"
                  checked={formats.has(option.value)}
                  onChange={(event) => setFormats((set) => toggled(set, option.value, event.target.checked))}
                />
                <span className="format-option__name">{option.name}</span>
                <span className="format-option__hint">{option.hint}</span>
              </label>
            ))}
          </fieldset>
        </section>

        <div className="tool-run">
          <button
            type="button"
            className="btn btn--primary btn--lg"
            disabled={Boolean(blocker) || working}
            aria-describedby={blocker ? hintId : undefined}
            onClick={start}
          >
            {working ? '正在生成…' : '生成子集'}
          </button>
          {blocker && (
            <p id={hintId} className="tool-run__hint">
              {blocker}
            </p>
          )}
        </div>
      </div>

      <section className="tool-result" aria-labelledby="subset-result-title">
        <h2 id="subset-result-title" className="tool-result__title" ref={resultHeading} tabIndex={-1}>
          生成结果
        </h2>
        {subset.phase === 'idle' && (
          <p className="tool-result__empty">生成后可以在这里预览效果、下载字体文件，并复制 @font-face 代码。</p>
        )}
        {working && (
          <ProgressBar label="生成进度" value={subset.job?.progress} status={jobStatus(subset.job, '正在生成子集')} />
        )}
        {subset.phase === 'failed' && (
          <p className="tool-error" role="alert">
            {subset.error}
          </p>
        )}
        {subset.result && (
          <SubsetResult
            result={subset.result}
            fontLabel={font?.label ?? '字体'}
            previewText={submittedText}
            expiresAt={subset.job?.expiresAt}
          />
        )}
      </section>
    </div>
  );
}
