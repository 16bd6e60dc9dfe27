import type { ReactElement } from 'react';
import type { SubmissionFileView } from '../../contract/submissions.ts';

// What the server found in a submitted file, shown alike to the designer (in the submit form and on
// the submission's page) and to reviewers: each face's names, weight, glyphs and coverage, whether
// it passed the browsers' font checks, and its specimen. Astro pages render it without script.

const COVERAGE = [
  ['gb2312', 'GB 2312', 6763],
  ['tongyong', '通用规范一级', 3500],
  ['big5', 'Big5', 13053],
  ['latin', '拉丁字母', 95],
] as const;

/** File sizes as people read them. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A font file: one row per face, then the specimens. */
export function FontFileReport({
  file,
  comment,
}: {
  file: SubmissionFileView;
  comment?: ReactElement | undefined;
}): ReactElement {
  return (
    <section className="sub-file" aria-label={`字体文件 ${file.name}`}>
      <p className="sub-file__head">
        <strong>{file.name}</strong>
        <span className="sub-file__meta">
          {formatSize(file.size)} · {file.faces.length} 个字重
        </span>
      </p>
      {comment}
      <div className="sub-table-wrap">
        <table className="sub-table">
          <caption className="visually-hidden">各字重的检查结果</caption>
          <thead>
            <tr>
              <th scope="col">字重</th>
              <th scope="col">字形数</th>
              {COVERAGE.map(([key, label, total]) => (
                <th scope="col" key={key}>
                  {label}
                  <small>（{total}）</small>
                </th>
              ))}
              <th scope="col">安全检查</th>
            </tr>
          </thead>
          <tbody>
            {file.faces.map((face) => (
              <tr key={face.fullName}>
                <th scope="row">
                  {face.fullName}
                  <small>
                    {face.weight} · {face.format.toUpperCase()} · {face.version.split(';')[0]}
                  </small>
                </th>
                <td>{face.glyphCount.toLocaleString('zh-CN')}</td>
                {COVERAGE.map(([key, , total]) => (
                  <td key={key} data-full={face.coverage[key] === total ? '' : undefined}>
                    {face.coverage[key].toLocaleString('zh-CN')}
                  </td>
                ))}
                {/* Only faces that pass are stored; a failing one is refused at upload with its reason. */}
                <td className="sub-table__ok">通过</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="sub-specimens">
        {file.faces.map((face) => (
          <li key={face.specimenUrl}>
            <img src={face.specimenUrl} alt={`${face.fullName} 的样张`} loading="lazy" decoding="async" />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Specimen images, with a button each to take one away when `onDrop` is given. */
export function ImageList({
  images,
  onDrop,
}: {
  images: SubmissionFileView[];
  onDrop?: ((id: number) => void) | undefined;
}): ReactElement {
  return (
    <ul className="sub-images">
      {images.map((image) => (
        <li key={image.id}>
          {image.imageUrl && (
            <img
              src={image.imageUrl}
              alt={`展示图 ${image.name}`}
              width={image.width ?? undefined}
              height={image.height ?? undefined}
              loading="lazy"
              decoding="async"
            />
          )}
          <p>
            <span>{image.name}</span>
            <small>
              {image.width} × {image.height}
            </small>
          </p>
          {onDrop && (
            <button type="button" className="btn btn--ghost" onClick={() => onDrop(image.id)}>
              删除<span className="visually-hidden">{image.name}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
