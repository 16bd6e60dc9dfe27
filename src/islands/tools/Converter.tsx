import { type ReactElement, useEffect, useId, useRef, useState } from 'react';
import { type ConvertFormat, startConvert } from '../../api/font-tools.ts';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { ProgressBar } from './ProgressBar.tsx';
import { clockTime, type PickedFont } from './picked-font.ts';
import { ResultFiles } from './ResultFiles.tsx';
import { jobStatus, revealResult, useToolJob } from './use-tool-job.ts';

/** The formats the converter writes, with what each is for. */
const FORMATS: Array<{ value: ConvertFormat; name: string; hint: string }> = [
  { value: 'woff2', name: 'WOFF2', hint: '网页首选，体积最小' },
  { value: 'woff', name: 'WOFF', hint: '兼容较旧的浏览器' },
  { value: 'ttf', name: 'TTF', hint: '电脑安装、设计软件通用' },
  { value: 'otf', name: 'OTF', hint: '仅限 CFF 轮廓（.otf）的源字体' },
  { value: 'eot', name: 'EOT', hint: '只有旧版 IE 需要' },
  { value: 'svg', name: 'SVG', hint: '遗留格式，仅旧版 iOS Safari 支持' },
];

/** True when the file is known to hold TrueType outlines, which cannot become OTF. */
const isTrueTypeFile = (font: PickedFont | null) => font?.format === 'ttf' || font?.format === 'ttc';

/**
 * The format converter: a font (uploaded or from the library), the formats to write, then the
 * conversion job with its progress and the files to download.
 */
export default function Converter(): ReactElement {
  const [font, setFont] = useState<PickedFont | null>(null);
  const [formats, setFormats] = useState<Set<ConvertFormat>>(new Set(['woff2', 'woff']));
  const [faceIndex, setFaceIndex] = useState(0);
  const conversion = useToolJob();
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const faceId = useId();
  const hintId = useId();

  const { reset } = conversion;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new font makes the old result stale.
  useEffect(() => {
    reset();
    setFaceIndex(0);
  }, [font]);
  useEffect(() => {
    if (conversion.phase === 'done') revealResult(resultHeading.current);
  }, [conversion.phase]);

  const toggle = (format: ConvertFormat, on: boolean) =>
    setFormats((current) => {
      const next = new Set(current);
      if (on) next.add(format);
      else next.delete(format);
      return next;
    });

  const chosen = FORMATS.map((option) => option.value).filter((value) => formats.has(value));
  const working = conversion.phase === 'working';
  const blocker = !font ? '请先上传或选择一款字体' : chosen.length === 0 ? '请至少选择一种格式' : '';

  return (
    <div className="tool-layout">
      <div className="tool-steps">
        <section className="tool-step" aria-labelledby="convert-step-font">
          <h2 id="convert-step-font" className="tool-step__title">
            <span className="tool-step__number">1</span>选择字体
          </h2>
          <FontSourcePicker onChange={setFont} />
          {font && font.faces > 1 && (
            <label className="tool-field" htmlFor={faceId}>
              <span className="tool-field__label">字体集合中要转换的字体</span>
              <select
                id={faceId}
                className="input"
                value={faceIndex}
                onChange={(event) => setFaceIndex(Number(event.target.value))}
              >
                {Array.from({ length: font.faces }, (_, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: faces are known by their position only.
                  <option key={index} value={index}>
                    第 {index + 1} 个
                  </option>
                ))}
              </select>
            </label>
          )}
        </section>

        <section className="tool-step" aria-labelledby="convert-step-formats">
          <h2 id="convert-step-formats" className="tool-step__title">
            <span className="tool-step__number">2</span>目标格式
          </h2>
          <fieldset className="format-options">
            <legend className="visually-hidden">要生成的格式（可多选）</legend>
            {FORMATS.map((option) => (
              <label key={option.value} className="format-option">
                <input
                  type="checkbox"
                  checked={formats.has(option.value)}
                  onChange={(event) => toggle(option.value, event.target.checked)}
                />
                <span className="format-option__name">{option.name}</span>
                <span className="format-option__hint">{option.hint}</span>
              </label>
            ))}
          </fieldset>
          {formats.has('otf') && isTrueTypeFile(font) && (
            <p className="tool-note tool-note--warning">
              这个文件是 TrueType 轮廓，转为 OTF 会失败；需要 OTF 请上传 CFF 轮廓的源字体。
            </p>
          )}
        </section>

        <div className="tool-run">
          <button
            type="button"
            className="btn btn--primary btn--lg"
            disabled={Boolean(blocker) || working}
            aria-describedby={blocker ? hintId : undefined}
            onClick={() =>
              font &&
              void conversion.run(
                () => startConvert({ source: font.source, formats: chosen, ...(font.faces > 1 ? { faceIndex } : {}) }),
                '转换完成',
              )
            }
          >
            {working ? '正在转换…' : '开始转换'}
          </button>
          {blocker && (
            <p id={hintId} className="tool-run__hint">
              {blocker}
            </p>
          )}
        </div>
      </div>

      <section className="tool-result" aria-labelledby="convert-result-title">
        <h2 id="convert-result-title" className="tool-result__title" ref={resultHeading} tabIndex={-1}>
          转换结果
        </h2>
        {conversion.phase === 'idle' && (
          <p className="tool-result__empty">转换好的文件会列在这里，可以逐个下载，也可以打包下载。</p>
        )}
        {working && (
          <ProgressBar
            label="转换进度"
            value={conversion.job?.progress}
            status={jobStatus(conversion.job, '正在转换')}
          />
        )}
        {conversion.phase === 'failed' && (
          <p className="tool-error" role="alert">
            {conversion.error}
          </p>
        )}
        {conversion.result && (
          <>
            <p className="tool-result__summary">
              {conversion.result.familyName ?? font?.label}：已生成 {conversion.result.files.length} 个文件
              {conversion.job?.expiresAt ? `，保留到 ${clockTime(conversion.job.expiresAt)}，请及时下载` : ''}。
            </p>
            <ResultFiles result={conversion.result} />
          </>
        )}
      </section>
    </div>
  );
}
