import type { ReactNode } from 'react';

/**
 * A page's box with a title row, drawn like Ant Design's borderless `Card` (app.css). For the
 * first page after login: `Card` always brings Ant Design's tabs (for its tab list) and skeleton.
 */
export function PageCard({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="lh-page-card">
      <div className="lh-page-card__head">
        <div className="lh-page-card__title">{title}</div>
        {extra && <div className="lh-page-card__extra">{extra}</div>}
      </div>
      <div className="lh-page-card__body">{children}</div>
    </section>
  );
}
