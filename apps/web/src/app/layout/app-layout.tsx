import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type UIMatch, useMatches } from 'react-router';
import { useServerHealth } from '../../components/notices/server-health.ts';
import { useSession } from '../../session/use-session.ts';
import { containerPath, titleKeyOf } from '../page-titles.ts';
import type { RouteHandle } from '../routes.ts';
import { AppFooter } from './app-footer.tsx';
import { AppHeader } from './app-header.tsx';
import { PageOutlet } from './page-outlet.tsx';
import { useNotices } from './use-notices.ts';

// The notices and the storage alarm are loaded when there is one to show (the home page's weight budget).
const AnnouncementBar = lazy(async () => ({ default: (await import('../../components/notices/announcement-bar.tsx')).AnnouncementBar }));
const UpgradeNoticeDialog = lazy(async () => ({
  default: (await import('../../components/notices/upgrade-notice-dialog.tsx')).UpgradeNoticeDialog,
}));
const StorageAlarm = lazy(async () => ({ default: (await import('../../components/notices/storage-alarm.tsx')).StorageAlarm }));
// Loaded when first asked for: its form checks the phone with the contract's rule (zod and the schemas).
const CapacityRequestDialog = lazy(async () => ({
  default: (await import('../../features/capacity/components/capacity-request-dialog.tsx')).CapacityRequestDialog,
}));

/** The shared layout of every /Container route: header (+ announcement), page, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const [capacityRequest, setCapacityRequest] = useState(false);
  const [capacityAsked, setCapacityAsked] = useState(false);
  const { notice, upgrade, close, neverShow } = useNotices(session.userId);
  const health = useServerHealth();
  const brand = session.customization.systemName || session.config?.cloudname || t('common.brand.default');

  // Spec §1: the browser title names the page, then the tenant's system name or the platform name.
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const leaf = matches[matches.length - 1];
  const titleKey = leaf ? titleKeyOf(containerPath(leaf.pathname), leaf.handle?.menu) : null;
  const pageName = titleKey ? t(titleKey) : null;
  useEffect(() => {
    document.title = pageName ? `${pageName} - ${brand}` : brand;
  }, [pageName, brand]);

  return (
    <div className={`lh-app${notice ? ' lh-app--notice' : ''}`}>
      <header className="lh-header" data-testid="app-header">
        <AppHeader
          session={session}
          brand={brand}
          onCapacityRequest={() => {
            setCapacityAsked(true);
            setCapacityRequest(true);
          }}
        />
        {notice && (
          <Suspense fallback={null}>
            <AnnouncementBar notice={notice} onClose={() => close(notice.id)} onNeverShow={() => neverShow(notice)} />
          </Suspense>
        )}
      </header>
      <main className="lh-content">
        {health?.disk === 'low' && (
          <Suspense fallback={null}>
            <StorageAlarm health={health} />
          </Suspense>
        )}
        <PageOutlet role={session.role} settled={session.settled} menus={session.menus} />
      </main>
      <AppFooter customization={session.customization} links={session.links} />
      {upgrade && (
        <Suspense fallback={null}>
          <UpgradeNoticeDialog notice={upgrade} onClose={() => close(upgrade.id)} onNeverShow={() => neverShow(upgrade)} />
        </Suspense>
      )}
      {capacityAsked && (
        <Suspense fallback={null}>
          <CapacityRequestDialog open={capacityRequest} onClose={() => setCapacityRequest(false)} />
        </Suspense>
      )}
    </div>
  );
}
