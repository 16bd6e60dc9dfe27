import type { ReactElement, ReactNode } from 'react';

interface Props {
  /** The heading's id, which names the section for assistive technology. */
  id: string;
  number: number;
  title: string;
  children: ReactNode;
}

/** One numbered step of a tool's form: a section named by its heading. */
export function ToolStep({ id, number, title, children }: Props): ReactElement {
  return (
    <section className="tool-step" aria-labelledby={id}>
      <h2 id={id} className="tool-step__title">
        <span className="tool-step__number">{number}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}
