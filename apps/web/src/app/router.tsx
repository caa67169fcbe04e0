import { Button, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Outlet, useRouteError } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.ts';
import { buildRoutes } from './routes.ts';

export function FullPageSpin() {
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spin size="large" />
    </div>
  );
}

function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  // Plain markup rather than Ant Design's Result: that one brings its three large illustrations into
  // the first load of every page.
  return (
    <div role="alert" className="lh-route-error">
      <h2>{t('app.error.title')}</h2>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('app.error.reload')}
      </Button>
    </div>
  );
}

export const router = createBrowserRouter(buildRoutes({ Root: Outlet, Fallback: FullPageSpin, ErrorBoundary: RouteError }));

// Spec §2: a 401 sends the browser to /Login (the client has already cleared the token).
setUnauthorizedHandler(() => {
  if (!router.state.location.pathname.toLowerCase().startsWith('/login')) void router.navigate('/Login', { replace: true });
});
