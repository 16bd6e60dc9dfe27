import { type ReactElement, useEffect, useId, useState } from 'react';
import { type SubsetCharset, type SubsetFormat, startSubset } from '../../api/font-tools.ts';
import { formatCount } from '../../components/font/font-format.ts';
import { showToast } from '../../stores/toast.ts';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { type CheckOption, OptionChecks } from './OptionChecks.tsx';
import type { PickedFont } from './picked-font.ts';
import { SubsetResult } from './SubsetResult.tsx';
import { distinctCharacters, readTextFile } from './subset-output.ts';
import { ToolResult } from './ToolResult.tsx';
import { ToolRun } from './ToolRun.tsx';
import { ToolStep } from './ToolStep.tsx';
import { useToolJob } from './use-tool-job.ts';

const CHARSETS: Array<CheckOption<SubsetCharset>> = [
  { value: 'common3500', name: '3500 常用字', hint: '通用规范汉字表一级字' },
  { value: 'gb2312', name: 'GB2312', hint: '6763 个简体汉字及符号' },
  { value: 'big5', name: 'Big5', hint: '13053 个繁体汉字' },
  { value: 'latin', name: '基本拉丁', hint: '英文字母、数字与标点' },
];

const FORMATS: Array<CheckOption<SubsetFormat>> = [
  { value: 'woff2', name: 'WOFF2', hint: '网页首选' },
  { value: 'woff', name: 'WOFF', hint: '兼容旧浏览器' },
  { value: 'ttf', name: 'TTF', hint: '桌面与小程序' },
];

/** Shown in the preview when the visitor chose character sets and typed nothing. */
const SAMPLE = '永和九年，岁在癸丑，暮春之初，会于会稽山阴之兰亭。ABC abc 0123';
/** Largest text file read in the browser (a long novel is about 2 MB). */
const MAX_TEXT_FILE = 5 * 1024 * 1024;

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
  const textId = useId();
  const fileId = useId();

  const { reset } = subset;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new font makes the old result stale.
  useEffect(() => reset(), [font]);

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
        <ToolStep id="subset-step-font" number={1} title="选择字体">
          <FontSourcePicker onChange={setFont} />
        </ToolStep>

        <ToolStep id="subset-step-text" number={2} title="要保留的文字">
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
          <OptionChecks
            legend="再加上整套字符（可选）"
            showLegend
            options={CHARSETS}
            checked={charsets}
            onChange={setCharsets}
          />
        </ToolStep>

        <ToolStep id="subset-step-formats" number={3} title="输出格式">
          <OptionChecks
            legend="要生成的格式（可多选）"
            compact
            options={FORMATS}
            checked={formats}
            onChange={setFormats}
          />
        </ToolStep>

        <ToolRun label="生成子集" workingLabel="正在生成…" blocker={blocker} working={working} onRun={start} />
      </div>

      <ToolResult
        id="subset-result-title"
        title="生成结果"
        job={subset}
        empty="生成后可以在这里预览效果、下载字体文件，并复制 @font-face 代码。"
        progressLabel="生成进度"
        workingStatus="正在生成子集"
      >
        {subset.result && (
          <SubsetResult
            result={subset.result}
            fontLabel={font?.label ?? '字体'}
            previewText={submittedText}
            expiresAt={subset.job?.expiresAt}
          />
        )}
      </ToolResult>
    </div>
  );
}
