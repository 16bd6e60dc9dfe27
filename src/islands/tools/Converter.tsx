import { type ReactElement, useEffect, useId, useState } from 'react';
import { type ConvertFormat, startConvert } from '../../api/font-tools.ts';
import { FontSourcePicker } from './FontSourcePicker.tsx';
import { type CheckOption, OptionChecks } from './OptionChecks.tsx';
import { clockTime, type PickedFont } from './picked-font.ts';
import { ResultFiles } from './ResultFiles.tsx';
import { ToolResult } from './ToolResult.tsx';
import { ToolRun } from './ToolRun.tsx';
import { ToolStep } from './ToolStep.tsx';
import { useToolJob } from './use-tool-job.ts';

/** The formats the converter writes, with what each is for. */
const FORMATS: Array<CheckOption<ConvertFormat>> = [
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
  const faceId = useId();

  const { reset } = conversion;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new font makes the old result stale.
  useEffect(() => {
    reset();
    setFaceIndex(0);
  }, [font]);

  const chosen = FORMATS.map((option) => option.value).filter((value) => formats.has(value));
  const working = conversion.phase === 'working';
  const blocker = !font ? '请先上传或选择一款字体' : chosen.length === 0 ? '请至少选择一种格式' : '';

  return (
    <div className="tool-layout">
      <div className="tool-steps">
        <ToolStep id="convert-step-font" number={1} title="选择字体">
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
        </ToolStep>

        <ToolStep id="convert-step-formats" number={2} title="目标格式">
          <OptionChecks legend="要生成的格式（可多选）" options={FORMATS} checked={formats} onChange={setFormats} />
          {formats.has('otf') && isTrueTypeFile(font) && (
            <p className="tool-note tool-note--warning">
              这个文件是 TrueType 轮廓，转为 OTF 会失败；需要 OTF 请上传 CFF 轮廓的源字体。
            </p>
          )}
        </ToolStep>

        <ToolRun
          label="开始转换"
          workingLabel="正在转换…"
          blocker={blocker}
          working={working}
          onRun={() =>
            font &&
            void conversion.run(
              () => startConvert({ source: font.source, formats: chosen, ...(font.faces > 1 ? { faceIndex } : {}) }),
              '转换完成',
            )
          }
        />
      </div>

      <ToolResult
        id="convert-result-title"
        title="转换结果"
        job={conversion}
        empty="转换好的文件会列在这里，可以逐个下载，也可以打包下载。"
        progressLabel="转换进度"
        workingStatus="正在转换"
      >
        {conversion.result && (
          <>
            <p className="tool-result__summary">
              {conversion.result.familyName ?? font?.label}：已生成 {conversion.result.files.length} 个文件
              {conversion.job?.expiresAt ? `，保留到 ${clockTime(conversion.job.expiresAt)}，请及时下载` : ''}。
            </p>
            <ResultFiles result={conversion.result} />
          </>
        )}
      </ToolResult>
    </div>
  );
}
