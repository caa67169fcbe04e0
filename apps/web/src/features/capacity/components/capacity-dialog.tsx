import '../capacity.css';
import { CloudUploadOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import type { Usage } from '@loggerhead/contract/schemas/billing.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Empty, Modal, Space, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { getToken } from '../../../api/session-storage.ts';
import { formatMegabytes, formatPercent } from '../../../lib/format.ts';
import { useSession } from '../../../session/use-session.ts';
import { packageQuery } from '../api/capacity.queries.ts';
import { CapacityPie } from './capacity-pie.tsx';
import { UsageTable } from './usage-table.tsx';

/** The request form checks the phone with the contract's rule (zod): it loads when first opened. */
const CapacityRequestDialog = lazy(async () => ({ default: (await import('./capacity-request-dialog.tsx')).CapacityRequestDialog }));

/** Spec §2 buy-package prompt: cancel, or go buy (the configured shop, else the console's own buy screen). */
export function useBuyPackagePrompt(goBuy: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return () =>
    modal.confirm({
      title: t('capacity.buy.title'),
      content: t('capacity.buy.text'),
      okText: t('capacity.buy.go'),
      cancelText: t('common.action.cancel'),
      onOk: goBuy,
    });
}

/**
 * The cloud-disk dialog of the header (spec §2): used vs total as a pie (total = package
 * storage × 1024 MB), the per-device statistics with quick delete, and the ways to more room.
 */
export function CapacityDialog({
  open,
  usage,
  loading,
  onClose,
  onUsageChanged,
}: {
  open: boolean;
  usage: Usage | null;
  loading: boolean;
  onClose: () => void;
  onUsageChanged?: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { tenantId, links } = useSession();
  const [requesting, setRequesting] = useState(false);
  const [asked, setAsked] = useState(false);
  const pkg = useQuery({ ...packageQuery(tenantId), enabled: open && Boolean(tenantId) });
  // The platform's package shop when configured (opened with the session token, spec §2), else the buy screen.
  const buy = useBuyPackagePrompt(() => {
    if (!links.capacityUrl) {
      onClose();
      return navigate('/Container/UserManager/Orders?buy=1');
    }
    const url = new URL(links.capacityUrl, window.location.origin);
    url.searchParams.set('token', getToken() ?? '');
    window.open(url.toString(), '_blank', 'noopener');
  });
  const over = usage?.over ?? false;
  const free = usage && usage.total_capacity !== null ? Math.max(0, usage.total_capacity - usage.total_disk_usage) : null;

  return (
    <>
      <Modal open={open} title={t('capacity.dialog.title')} footer={null} onCancel={onClose} destroyOnHidden width={720}>
        {usage ? (
          <div data-testid="capacity-dialog">
            <div className="lh-capacity-dialog__top">
              <CapacityPie rate={usage.disk_usage_rate} over={over} label={formatPercent(usage.disk_usage_rate / 10_000)} />
              <dl className="lh-capacity-dialog__figures">
                <dt>
                  <span className="lh-capacity-dialog__dot" style={{ background: over ? '#ff4d4f' : '#1677ff' }} />
                  {t('capacity.dialog.used')}
                </dt>
                <dd data-testid="capacity-used">{formatMegabytes(usage.total_disk_usage)}</dd>
                <dt>
                  <span className="lh-capacity-dialog__dot" style={{ background: '#e6f4ff' }} />
                  {t('capacity.dialog.free')}
                </dt>
                <dd>{free === null ? t('capacity.dialog.unlimited') : formatMegabytes(free)}</dd>
                <dt>{t('capacity.dialog.total')}</dt>
                <dd data-testid="capacity-total">
                  {usage.total_capacity === null ? t('capacity.dialog.unlimited') : formatMegabytes(usage.total_capacity)}
                </dd>
              </dl>
            </div>
            {over && <Alert type="error" showIcon message={t('capacity.dialog.over')} style={{ marginBottom: 12 }} />}
            <Space style={{ marginBottom: 12 }}>
              <Button
                icon={<CloudUploadOutlined />}
                onClick={() => {
                  setAsked(true);
                  setRequesting(true);
                }}
                data-testid="capacity-request-open"
              >
                {t('capacity.dialog.request')}
              </Button>
              <Button icon={<ShoppingCartOutlined />} onClick={buy}>
                {t('capacity.dialog.buy')}
              </Button>
            </Space>
            <Typography.Title level={5}>{t('capacity.table.title')}</Typography.Title>
            {tenantId && (
              <UsageTable
                tenantId={tenantId}
                pkg={pkg.data ?? null}
                onChanged={() => {
                  onUsageChanged?.();
                  void qc.invalidateQueries({ queryKey: ['shell', 'usage'] });
                }}
              />
            )}
          </div>
        ) : (
          <Empty description={loading ? t('capacity.dialog.loading') : t('capacity.dialog.unavailable')} />
        )}
      </Modal>
      {asked && (
        <Suspense fallback={null}>
          <CapacityRequestDialog open={requesting} onClose={() => setRequesting(false)} />
        </Suspense>
      )}
    </>
  );
}
