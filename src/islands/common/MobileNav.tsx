import { type ReactElement, useRef } from 'react';
import type { NavItem } from '../../lib/site-map.ts';
import { isCurrentSection } from '../../lib/site-map.ts';
import { Icon } from './icons.tsx';
import { trapTab } from './trap-tab.ts';

interface Props {
  items: NavItem[];
  currentPath: string;
}

/**
 * The phone and tablet menu: a button that opens the navigation as a modal drawer. The native
 * <dialog> keeps focus inside while it is open, closes on Escape and returns focus to the button.
 */
export default function MobileNav({ items, currentPath }: Props): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = () => dialog.current?.close();
  return (
    <>
      <button
        type="button"
        className="icon-button mobile-nav__toggle"
        aria-label="打开导航菜单"
        aria-haspopup="dialog"
        onClick={() => dialog.current?.showModal()}
      >
        <Icon name="menu" />
      </button>
      <dialog
        ref={dialog}
        className="mobile-nav"
        onKeyDown={trapTab}
        aria-label="导航菜单"
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside the panel) closes it.
          if (event.target === dialog.current) close();
        }}
      >
        <div className="mobile-nav__panel">
          <div className="mobile-nav__head">
            <span className="mobile-nav__title">导航</span>
            <button type="button" className="icon-button" aria-label="关闭导航菜单" onClick={close}>
              <Icon name="close" />
            </button>
          </div>
          <search>
            <form className="mobile-nav__search" action="/search" method="get">
              <label className="visually-hidden" htmlFor="mobile-search">
                搜索字体和文章
              </label>
              <input
                className="input"
                id="mobile-search"
                name="q"
                type="search"
                placeholder="搜索字体、文章"
                enterKeyHint="search"
              />
              <button type="submit" className="btn btn--primary">
                搜索
              </button>
            </form>
          </search>
          <nav aria-label="主导航（菜单）">
            <ul className="mobile-nav__list">
              {items.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={isCurrentSection(item.href, currentPath) ? 'page' : undefined}>
                    {item.label}
                  </a>
                  {item.children && (
                    <ul className="mobile-nav__sub">
                      {item.children.map((child) => (
                        <li key={child.href}>
                          <a href={child.href} aria-current={currentPath === child.href ? 'page' : undefined}>
                            {child.label}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </dialog>
    </>
  );
}
