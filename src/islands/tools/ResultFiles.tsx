import type { ReactElement } from 'react';
import { formatBytes } from '../../components/font/font-format.ts';
import type { JobResult } from '../../lib/tools-types.ts';

/** The files a job produced, each with its size and a download link, plus the zip of all of them. */
export function ResultFiles({ result }: { result: JobResult }): ReactElement {
  return (
    <div className="result-files">
      <ul className="result-files__list">
        {result.files.map((file) => (
          <li key={file.url} className="result-file">
            <span className="result-file__format">{file.format.toUpperCase()}</span>
            <span className="result-file__name">{file.name}</span>
            <span className="result-file__size">{formatBytes(file.size)}</span>
            <a className="btn result-file__download" href={file.url} download={file.name}>
              下载<span className="visually-hidden"> {file.name}</span>
            </a>
          </li>
        ))}
      </ul>
      {result.zipUrl && result.files.length > 1 && (
        <a className="btn btn--primary result-files__zip" href={result.zipUrl} download>
          打包下载（{result.files.length} 个文件）
        </a>
      )}
    </div>
  );
}
