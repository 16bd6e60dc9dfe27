import { useStore } from '@nanostores/react';
import { type ReactElement, useEffect, useState } from 'react';
import { deleteFavoriteArticle, deleteFavoriteCollect, type FavoriteEntry } from '../../api/favorites.ts';
import { showToast } from '../../stores/toast.ts';
import { $favoriteArticles, $favoriteCollects, loadFavoriteArticles, loadFavoriteCollects } from '../../stores/user.ts';

/** What the favourites calls send for an album or an article (src/server/services/content-favorites.ts). */
interface KeptItem extends FavoriteEntry {
  title?: string;
  summary?: string;
  thumb?: string | null;
  url?: string;
  kind?: string;
  createdAt?: string;
}

const KIND_LABELS: Record<string, string> = { album: '专辑', news: '资讯', zixun: '字体咨询', baike: '书法百科' };

function keptOn(iso: string | undefined): string {
  const date = iso ? new Date(iso) : undefined;
  return date && !Number.isNaN(date.getTime())
    ? `${date.getFullYear()}年${date.getMonth() + 1}月${date.getDate()}日收藏`
    : '';
}

function KeptList(props: {
  id: string;
  title: string;
  items: KeptItem[] | null;
  empty: ReactElement;
  onRemove: (item: KeptItem) => Promise<void>;
}): ReactElement {
  return (
    <section className="kept" aria-labelledby={props.id}>
      <h2 id={props.id}>
        {props.title} {props.items && props.items.length > 0 && <small>{props.items.length}</small>}
      </h2>
      {props.items === null ? (
        <p className="favorites__empty">正在读取…</p>
      ) : props.items.length === 0 ? (
        <p className="favorites__empty">{props.empty}</p>
      ) : (
        <ul className="kept__list">
          {props.items.map((item) => (
            <li key={`${item.kind ?? 'album'}-${item.id}`} className="kept__item">
              {item.thumb ? (
                <img className="kept__thumb" src={item.thumb} alt="" loading="lazy" decoding="async" />
              ) : null}
              <div className="kept__text">
                <a href={item.url ?? '#'}>{item.title}</a>
                {item.summary ? <p>{item.summary}</p> : null}
                <small>{[KIND_LABELS[item.kind ?? 'album'], keptOn(item.createdAt)].filter(Boolean).join(' · ')}</small>
              </div>
              <button type="button" className="btn btn--ghost" onClick={() => void props.onRemove(item)}>
                取消收藏
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The albums and articles the user keeps, newest first, each removable in place. */
export default function FavoriteReading(): ReactElement {
  const albums = useStore($favoriteCollects) as KeptItem[];
  const articles = useStore($favoriteArticles) as KeptItem[];
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    Promise.allSettled([loadFavoriteCollects(), loadFavoriteArticles()]).then(() => setLoaded(true));
  }, []);

  /** Lets go of one kept item, then reloads that list. */
  const letGo =
    (remove: (id: KeptItem['id']) => Promise<unknown>, reload: () => Promise<void>) => async (item: KeptItem) => {
      const done = await remove(item.id)
        .then(() => true)
        .catch(() => false);
      if (!done) return;
      showToast(`已取消收藏「${item.title ?? ''}」`, 'success');
      await reload();
    };

  return (
    <>
      <KeptList
        id="kept-albums-title"
        title="收藏的专辑"
        items={loaded ? albums : null}
        empty={
          <>
            还没有收藏专辑。在<a href="/album">专辑</a>页面点击「收藏」即可加入。
          </>
        }
        onRemove={letGo(deleteFavoriteCollect, loadFavoriteCollects)}
      />
      <KeptList
        id="kept-articles-title"
        title="收藏的文章"
        items={loaded ? articles : null}
        empty={
          <>
            还没有收藏文章。阅读<a href="/news">资讯</a>、<a href="/zixun">字体咨询</a>或<a href="/baike">书法百科</a>
            时点击「收藏」即可加入。
          </>
        }
        onRemove={letGo(deleteFavoriteArticle, loadFavoriteArticles)}
      />
    </>
  );
}
