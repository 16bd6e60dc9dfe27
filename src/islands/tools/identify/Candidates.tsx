import { type ReactElement, useEffect, useRef } from 'react';
import type { IdentifyResult } from '../../../api/identify.ts';
import { paintFontActions } from '../../fonts/font-actions.ts';
import { loadPreviews } from '../../fonts/font-previews.ts';
import { GlyphCrop } from './GlyphCrop.tsx';

interface Props {
  result: IdentifyResult;
  image: HTMLImageElement | null;
}

/**
 * The ranked candidates: each shows the person's glyphs beside the same characters drawn in the
 * candidate's face (the site's subset preview service), its score and licence, and the ways on:
 * the font's page, compare, favourite and download.
 */
export function Candidates({ result, image }: Props): ReactElement {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    // Each new answer draws its own sample in its own candidates' faces.
    if (list.current && result.sample) void loadPreviews(list.current);
    paintFontActions();
  }, [result]);
  if (result.candidates.length === 0) {
    return <p className="tool-result__empty">字体库里没有包含这些字的字体，请检查填写的字是否正确。</p>;
  }
  return (
    <ol ref={list} className="identify-candidates">
      {result.candidates.map((candidate, rank) => {
        const face = candidate.faces[0];
        const family = candidate.family;
        const name = `${family.nameZh}${face ? ` ${face.styleName}` : ''}`;
        return (
          <li key={`${family.gno}-${face?.gno}`} className="identify-candidate">
            <div className="identify-candidate__head">
              <span className="identify-candidate__rank">{rank + 1}</span>
              <h3 className="identify-candidate__name">
                <a href={`/font/${family.gno}`}>{name}</a>
                <small>
                  {family.nameEn} · {face?.weight}
                </small>
              </h3>
              <span className="identify-candidate__score" title="字形相似度">
                {candidate.score.toFixed(1)}%
              </span>
            </div>
            <div className="identify-candidate__compare">
              <div className="identify-candidate__crops" role="img" aria-label={`你的图片：${result.sample}`}>
                {result.glyphs.map((glyph) => (
                  <GlyphCrop key={`${glyph.box.x}-${glyph.box.y}`} image={image} box={glyph.box} size={40} />
                ))}
              </div>
              <span className="identify-candidate__sample" data-preview-gno={face?.gno} lang="zh-CN">
                {result.sample}
              </span>
            </div>
            <p className="identify-candidate__meta">
              <span className="badge">{family.commercialFree ? '可免费商用' : '请查看授权'}</span> 授权 {family.license}
              {candidate.faces.length > 1 &&
                `；同款字重：${candidate.faces
                  .slice(1)
                  .map((f) => f.styleName)
                  .join('、')}`}
              {candidate.alike.length > 0 &&
                `；字形相同或几乎相同：${candidate.alike.map((a) => `${a.familyName} ${a.styleName}`).join('、')}`}
              {candidate.covered < result.glyphs.length && `；缺 ${result.glyphs.length - candidate.covered} 个字`}
            </p>
            <div className="identify-candidate__actions">
              <a className="btn btn--sm btn--primary" href={`/font/${family.gno}`}>
                查看字体
              </a>
              <button
                type="button"
                className="btn btn--sm"
                data-compare-gno={family.gno}
                data-family-name={family.nameZh}
                aria-pressed="false"
                aria-label={`把${family.nameZh}加入对比`}
              >
                <span data-label>对比</span>
              </button>
              <button
                type="button"
                className="btn btn--sm"
                data-favorite-gno={family.gno}
                aria-pressed="false"
                aria-label={`收藏${family.nameZh}`}
              >
                <span data-label>收藏</span>
              </button>
              <a className="btn btn--sm btn--ghost" href={`/font/${family.gno}#download`}>
                下载
              </a>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
