import { type ReactElement, useEffect, useState } from 'react';
import type { Page } from '../../api/types.ts';
import { getDownloadHistory } from '../../api/user-data.ts';
import type { DownloadRecord } from '../../contract/fonts.ts';

const PAGE_SIZE = 20;
const time = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short' });

/** The user's downloads, newest first, page by page, each linking back to its font. */
export default function DownloadHistory(): ReactElement {
  const [current, setCurrent] = useState(1);
  const [page, setPage] = useState<Page<DownloadRecord> | null>(null);
  const [failed, setFailed] = useState(false);

  // Paging quickly asks again before the last answer came; only the page asked for last is shown.
  useEffect(() => {
    let latest = true;
    setFailed(false);
    getDownloadHistory({ current, size: PAGE_SIZE })
      .then((answer) => latest && setPage(answer as unknown as Page<DownloadRecord>))
      .catch(() => latest && setFailed(true));
    return () => {
      latest = false;
    };
  }, [current]);

  if (failed) return <p className="history-empty">下载记录暂时无法读取，请稍后刷新重试。</p>;
  if (!page) return <p className="history-empty">正在读取下载记录…</p>;
  if (page.total === 0) {
    return (
      <p className="history-empty">
        还没有下载记录。在<a href="/font">字体库</a>中下载字体后，会记录在这里。
      </p>
    );
  }
  return (
    <div className="history">
      <table className="history__table">
        <thead>
          <tr>
            <th scope="col">字体</th>
            <th scope="col">文件</th>
            <th scope="col">下载时间</th>
          </tr>
        </thead>
        <tbody>
          {page.records.map((record) => (
            <tr key={record.id}>
              <td>
                <a href={`/font/${record.fontGNo}`}>{record.familyName}</a>
              </td>
              <td>{record.childFontGNo ? `${record.styleName ?? ''}（TTF）` : '全部字重（ZIP）'}</td>
              <td>{time.format(new Date(record.createdAt))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.pages > 1 && (
        <nav className="history__pager" aria-label="下载记录分页">
          <button type="button" className="btn" disabled={current <= 1} onClick={() => setCurrent(current - 1)}>
            上一页
          </button>
          <span>
            第 {current} / {page.pages} 页
          </span>
          <button
            type="button"
            className="btn"
            disabled={current >= page.pages}
            onClick={() => setCurrent(current + 1)}
          >
            下一页
          </button>
        </nav>
      )}
    </div>
  );
}
