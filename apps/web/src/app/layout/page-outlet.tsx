import type { MenuKey } from '@loggerhead/contract/menus.ts';
import { Spin } from 'antd';
import { Activity, lazy, type ReactNode, Suspense, useRef } from 'react';
import { type UIMatch, useMatches, useOutlet } from 'react-router';
import { can } from '../../session/can.ts';
import type { Role } from '../../session/menus.ts';
import { containerPath } from '../page-titles.ts';
import { forbidden, guarded, type RouteHandle } from '../routes.ts';
import { PageBreadcrumb } from './page-breadcrumb.tsx';

const Forbidden = lazy(() => import('./forbidden.tsx'));

/**
 * Renders the page of the current route. Pages marked `keepAlive` (HomePage and
 * CarManager, spec §2) stay mounted but hidden after the user leaves them, so lists,
 * filters and scroll positions are still there on return. A page the user may not open (typed
 * into the address bar: it is in none of their menus, or its key is not theirs) is the 403 page, never the page itself; until
 * the user's role and menus are known, a spinner.
 */
export function PageOutlet({ role, settled, menus }: { role: Role; settled: boolean; menus: ReadonlySet<MenuKey> }) {
  const outlet = useOutlet();
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const leaf = matches[matches.length - 1];
  const handle = leaf?.handle;
  const cache = useRef(new Map<string, { path: string; element: ReactNode }>());
  const spin = <Spin style={{ display: 'block', margin: '80px auto' }} />;

  let page: ReactNode = outlet;
  const closed = guarded(handle) && (!settled || forbidden(handle, role, menus, can));
  if (closed) {
    page = settled ? (
      <div data-testid="forbidden">
        <Suspense fallback={spin}>
          <Forbidden />
        </Suspense>
      </div>
    ) : (
      spin
    );
  }

  const current = handle?.keepAlive && leaf && !closed ? leaf.id : null;
  if (current && leaf) cache.current.set(current, { path: leaf.pathname, element: outlet });

  // Each page sits in a marked box, so tests and styles can find the page of a route whatever it renders.
  return (
    <>
      {[...cache.current].map(([id, { path, element }]) => (
        <Activity key={id} mode={id === current ? 'visible' : 'hidden'}>
          <div className="lh-page" data-testid="page" data-route={path}>
            {element}
          </div>
        </Activity>
      ))}
      {current === null && (
        <div className="lh-page" data-testid="page" data-route={leaf?.pathname}>
          {!closed && leaf && <PageBreadcrumb path={containerPath(leaf.pathname)} />}
          <Suspense fallback={spin}>{page}</Suspense>
        </div>
      )}
    </>
  );
}
