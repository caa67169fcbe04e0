import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Outlet, useRouteError } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.ts';
import { buildRoutes } from './routes.ts';

/** Shown while the first page loads: plain markup, as Ant Design is not loaded yet. */
export function FullPageSpin() {
  return (
    <div className="lh-full-page-spin">
      <span className="lh-spinner lh-spinner--large" role="progressbar" aria-busy="true" />
    </div>
  );
}

function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  // Plain markup: this page shows when a page failed, maybe before Ant Design could load.
  return (
    <div role="alert" className="lh-route-error">
      <h2>{t('app.error.title')}</h2>
      <button type="button" className="lh-button lh-button--primary" onClick={() => window.location.reload()}>
        {t('app.error.reload')}
      </button>
    </div>
  );
}

export const router = createBrowserRouter(buildRoutes({ Root: Outlet, Fallback: FullPageSpin, ErrorBoundary: RouteError }));

// Spec §2: a 401 sends the browser to /Login (the client has already cleared the token).
setUnauthorizedHandler(() => {
  if (!router.state.location.pathname.toLowerCase().startsWith('/login')) void router.navigate('/Login', { replace: true });
});
