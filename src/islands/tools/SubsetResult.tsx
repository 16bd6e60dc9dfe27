import { type ReactElement, useEffect, useState } from 'react';
import { formatCount } from '../../components/font/font-format.ts';
import type { JobResult } from '../../lib/tools-types.ts';
import { CopyButton } from './CopyButton.tsx';
import { clockTime } from './picked-font.ts';
import { ResultFiles } from './ResultFiles.tsx';
import { fontFaceCss, loadPreviewFace } from './subset-output.ts';

interface Props {
  result: JobResult;
  /** The font's name, when the server did not say it. */
  fontLabel: string;
  /** What the preview shows: the visitor's text, or a sample when they chose character sets only. */
  previewText: string;
  /** When the files are deleted. */
  expiresAt: string | undefined;
}

/** Most missing characters listed; the rest are counted. */
const MISSING_SHOWN = 120;

/** A finished subset: counts, missing characters, a live preview in the new font, files and CSS. */
export function SubsetResult({ result, fontLabel, previewText, expiresAt }: Props): ReactElement {
  const [family, setFamily] = useState<string | undefined>();
  const [previewFailed, setPreviewFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setFamily(undefined);
    setPreviewFailed(false);
    loadPreviewFace(result)
      .then((name) => live && setFamily(name))
      .catch(() => live && setPreviewFailed(true));
    return () => {
      live = false;
    };
  }, [result]);

  const missing = [...(result.missing ?? '')];
  const missingCount = result.missingCount ?? missing.length;
  const css = fontFaceCss(result, fontLabel);
  return (
    <div className="subset-result">
      <dl className="subset-counts">
        {result.keptCount !== undefined && (
          <div>
            <dt>保留字符</dt>
            <dd>{formatCount(result.keptCount)}</dd>
          </div>
        )}
        <div>
          <dt>字体中缺少</dt>
          <dd>{formatCount(missingCount)}</dd>
        </div>
      </dl>
      {missing.length > 0 && (
        <p className="subset-missing">
          <span>字体里没有这些字，网页上会改用访客设备自带的字体显示：</span>
          <span className="subset-missing__chars">
            {missing.slice(0, MISSING_SHOWN).join('')}
            {missingCount > Math.min(missing.length, MISSING_SHOWN) ? ` 等 ${formatCount(missingCount)} 个` : ''}
          </span>
        </p>
      )}

      <figure className="subset-preview">
        <figcaption>效果预览{family ? '（生成的字体已载入浏览器）' : ''}</figcaption>
        {previewFailed ? (
          <p className="tool-error">预览字体没能载入浏览器，文件本身不受影响，可以直接下载。</p>
        ) : (
          <p
            className="subset-preview__text"
            data-font-family={family}
            aria-busy={family ? undefined : 'true'}
            style={family ? { fontFamily: `'${family}', var(--font-sans)` } : { visibility: 'hidden' }}
          >
            {previewText}
          </p>
        )}
      </figure>

      <ResultFiles result={result} />
      {expiresAt && <p className="tool-note">文件保留到 {clockTime(expiresAt)}，请及时下载。</p>}

      <div className="code-block">
        <div className="code-block__head">
          <span>@font-face 代码</span>
          <CopyButton text={css} label="复制 @font-face 代码" />
        </div>
        <pre>
          <code>{css}</code>
        </pre>
        {!result.css && (
          <p className="code-block__note">把下载的文件和样式表放在同一目录，再按需修改 font-family 名称。</p>
        )}
      </div>
    </div>
  );
}
