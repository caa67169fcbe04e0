import { CloudOutlined, DesktopOutlined, DownOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { Usage } from '@loggerhead/contract/schemas/billing.ts';
import { Button, Dropdown, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../api/session-storage.ts';
import { currentLang } from '../../i18n/setup.ts';
import { sessionApi } from '../../session/session.api.ts';

/** The capacity dialog (its usage table, pie and request form) loads when first opened. */
const CapacityDialog = lazy(async () => ({
  default: (await import('../../features/capacity/components/capacity-dialog.tsx')).CapacityDialog,
}));

const light = { color: 'rgba(255,255,255,0.85)' };

/** Opens a page outside the console in a new tab with the session token (spec §2). */
export function openWithToken(url: string): void {
  const u = new URL(url, window.location.origin);
  const token = getToken();
  if (token) u.searchParams.set('token', token);
  window.open(u.toString(), '_blank', 'noopener');
}

/** Monitor and operation screens open in a new window with token, locale, tenantId and userId (spec §2). */
export function ScreenDropdown({ tenantId, userId }: { tenantId: string | null; userId: string | null }) {
  const { t } = useTranslation();
  // The window's token is a monitor session of its own (read-only, short-lived), never the console's.
  const open = async (screen: 'monitor' | 'operation') => {
    const monitor = await sessionApi.monitor().catch(() => null);
    const q = new URLSearchParams({ token: monitor?.token ?? '', locale: currentLang(), tenantId: tenantId ?? '', userId: userId ?? '' });
    if (screen === 'operation') q.set('screen', 'operation');
    window.open(`/Watch?${q}`, '_blank', 'noopener');
  };
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          { key: 'monitor', label: t('app.header.monitorScreen') },
          { key: 'operation', label: t('app.header.operationScreen') },
        ],
        onClick: ({ key }) => void open(key as 'monitor' | 'operation'),
      }}
    >
      <Button type="text" style={light} icon={<DesktopOutlined />} data-testid="screen-dropdown">
        {t('app.header.screens')} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}

/** The header's help: the platform's help address (`HELP_URL`), else the built-in documentation. */
export function HelpLink({ href }: { href?: string }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('app.header.help')}>
      <Button
        type="text"
        style={light}
        icon={<QuestionCircleOutlined />}
        href={href || '/doc?type=help'}
        rel="noopener noreferrer"
        target="_blank"
        aria-label={t('app.header.help')}
      />
    </Tooltip>
  );
}

/** Cloud-disk capacity: the icon turns red over capacity; the dialog shows the usage pie (spec §2). */
export function CapacityButton({ usage, loading }: { usage: Usage | null; loading: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  const over = usage?.over ?? false;
  return (
    <>
      <Tooltip title={t('app.header.capacity')}>
        <Button
          type="text"
          style={over ? { color: '#ff4d4f' } : light}
          icon={<CloudOutlined />}
          aria-label={t('app.header.capacity')}
          data-over={over}
          data-testid="capacity-button"
          onClick={() => {
            setAsked(true);
            setOpen(true);
          }}
        />
      </Tooltip>
      {asked && (
        <Suspense fallback={null}>
          <CapacityDialog open={open} usage={usage} loading={loading} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
