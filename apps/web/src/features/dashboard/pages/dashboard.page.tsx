import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { MAX_PANELS, type Panel } from '@loggerhead/contract/schemas/dashboard.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mayCall } from '../../../session/can.ts';
import { selfDetailQuery } from '../../../session/session.queries.ts';
import { useSession } from '../../../session/use-session.ts';
import { dashboardApi } from '../api/dashboard.api.ts';
import { dashboardKeys, defaultDashboardQuery, panelsQuery } from '../api/dashboard.queries.ts';
import { PanelCard } from '../components/panel-card.tsx';
import { PanelDialog } from '../components/panel-dialog.tsx';
import { moved } from '../lib/panels.ts';
import '../dashboard.css';

/**
 * The default dashboard (spec §3, §4): the tenant's panels in panel_order, in a grid that
 * follows the window's width. Panels are added, changed, moved and deleted here.
 */
export default function DashboardPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const session = useSession();
  const self = useQuery(selfDetailQuery());
  const tenantId = session.tenantId;
  const dashboard = useQuery(defaultDashboardQuery(session));
  const dashboardId = dashboard.data?.id ?? null;
  const panels = useQuery(panelsQuery(tenantId, dashboardId));
  const [target, setTarget] = useState<Panel | 'new' | null>(null);
  const list = panels.data ?? [];

  const reorder = useMutation({
    mutationFn: (ids: string[]) => dashboardApi.reorder(tenantId as string, dashboardId as string, ids),
    onSuccess: (next) => qc.setQueryData(dashboardKeys.panels(tenantId, dashboardId), next),
  });
  const remove = useMutation({
    mutationFn: (p: Panel) => dashboardApi.remove(tenantId as string, dashboardId as string, p.id),
    onSuccess: () => {
      void message.success(t('dashboard.delete.done'));
      void qc.invalidateQueries({ queryKey: dashboardKeys.panels(tenantId, dashboardId) });
    },
  });

  const confirmDelete = (p: Panel) =>
    modal.confirm({
      title: t('dashboard.delete.title'),
      content: t('dashboard.delete.confirm', { name: p.name }),
      okText: t('dashboard.panel.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.action.cancel'),
      onOk: () => remove.mutateAsync(p).catch(() => undefined),
    });

  const loading = dashboard.isPending || (Boolean(dashboardId) && panels.isPending);
  const full = list.length >= MAX_PANELS;
  // The read-only experience account looks, and changes nothing.
  // A sub-user sees the actions of the keys it holds (spec §2's button directive).
  const writable = self.data ? !self.data.readOnly : false;
  const editable = writable && mayCall(Routes.dashboard.updatePanel) && mayCall(Routes.dashboard.reorderPanels);
  const deletable = writable && mayCall(Routes.dashboard.removePanel);
  const addButton = writable && mayCall(Routes.dashboard.createPanel) && (
    <Button type="primary" icon={<PlusOutlined />} disabled={!dashboardId || full} onClick={() => setTarget('new')} data-testid="panel-add">
      {t('dashboard.add')}
    </Button>
  );

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('dashboard.title')}
        </Typography.Title>
      }
      extra={
        dashboardId && list.length > 0 ? (
          <Space>
            <Typography.Text type="secondary" data-testid="panel-count">
              {t('dashboard.count', { count: list.length, max: MAX_PANELS })}
            </Typography.Text>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('dashboard.refresh')}
              onClick={() => void qc.invalidateQueries({ queryKey: dashboardKeys.all })}
            />
            {addButton}
          </Space>
        ) : null
      }
    >
      {loading ? (
        <Skeleton active />
      ) : !dashboardId || !tenantId ? (
        <Empty description={t('dashboard.none')} data-testid="dashboard-none" />
      ) : list.length === 0 ? (
        <Flex vertical align="center" gap={16} style={{ padding: '48px 0' }} data-testid="dashboard-empty">
          <Empty
            description={
              <Flex vertical gap={4}>
                <Typography.Text strong>{t('dashboard.empty')}</Typography.Text>
                <Typography.Text type="secondary">{t('dashboard.emptyHint')}</Typography.Text>
              </Flex>
            }
          />
          {addButton}
        </Flex>
      ) : (
        <div className="lh-dash__grid" data-testid="panel-grid">
          {list.map((p, i) => (
            <PanelCard
              key={p.id}
              tenantId={tenantId}
              panel={p}
              first={i === 0}
              last={i === list.length - 1}
              busy={reorder.isPending}
              onMove={(step) =>
                reorder.mutate(
                  moved(
                    list.map((x) => x.id),
                    i,
                    step,
                  ),
                )
              }
              onEdit={() => setTarget(p)}
              onDelete={() => confirmDelete(p)}
              editable={editable}
              deletable={deletable}
            />
          ))}
        </div>
      )}
      {tenantId && dashboardId && (
        <PanelDialog tenantId={tenantId} dashboardId={dashboardId} target={target} onClose={() => setTarget(null)} />
      )}
    </Card>
  );
}
