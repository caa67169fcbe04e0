import { DeleteOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { QuickDeleteTask, TenantPackage } from '@loggerhead/contract/schemas/billing.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Table, Tooltip, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatMegabytes, formatPercent } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import type { ThingUsagePage } from '../api/capacity.api.ts';
import { capacityKeys, devicesQuery, perDeviceUsageQuery } from '../api/capacity.queries.ts';
import { QuickDeleteDialog } from './quick-delete-dialog.tsx';

type Row = ThingUsagePage['list'][number];
/** Spec §9: capacity table page size 5, options 5-25. */
const SIZES = [5, 10, 15, 20, 25];

/**
 * Capacity statistics per device (spec §2 widget), largest first, with quick delete of a
 * device's data for the devices of the package's quick-delete list (spec §6): password
 * re-confirmation → task → list refreshed. Other devices get the hint to the user centre.
 */
export function UsageTable({ tenantId, pkg, onChanged }: { tenantId: string; pkg: TenantPackage | null; onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(5);
  const usage = useQuery(perDeviceUsageQuery(tenantId, page, size));
  const devices = useQuery(devicesQuery(tenantId));
  const [deleting, setDeleting] = useState<{ id: string; label: string } | null>(null);

  const quickIds = new Set((pkg?.quick_delete_things_list ?? []).map((q) => q.third_things_id));
  const thirdId = (thingsId: string) => devices.data?.find((d) => d.id === thingsId)?.third_things_id;

  // The task ended: the list and the usage are read again (spec §4 "list refreshed").
  const finished = useCallback(
    (task: QuickDeleteTask) => {
      if (task.status === 3) void message.success(t('capacity.quickDelete.finished'));
      void qc.invalidateQueries({ queryKey: capacityKeys.all });
      onChanged();
    },
    [message, t, qc, onChanged],
  );

  // Spec §8: a failing capacity table clears the list and shows a total of 0.
  const rows = usage.isError ? [] : (usage.data?.list ?? []);
  const total = usage.isError ? 0 : (usage.data?.total ?? 0);

  return (
    <>
      <Table<Row>
        size="small"
        data-testid="capacity-table"
        rowKey="things_id"
        loading={usage.isFetching && !usage.data}
        dataSource={rows}
        pagination={{
          current: page,
          pageSize: size,
          total,
          size: 'small',
          showSizeChanger: true,
          pageSizeOptions: SIZES,
          onChange: (p, s) => {
            setPage(s === size ? p : 1);
            setSize(s);
          },
        }}
        columns={[
          {
            key: 'name',
            title: t('capacity.table.device'),
            render: (_v, r) => (
              <>
                <div>{r.name ?? '--'}</div>
                <Typography.Text type="secondary" className="lh-mono" style={{ fontSize: 12 }}>
                  {thirdId(r.things_id) ?? r.things_id}
                </Typography.Text>
              </>
            ),
          },
          { key: 'usage', title: t('capacity.table.usage'), align: 'right', render: (_v, r) => formatMegabytes(r.usage) },
          { key: 'rate', title: t('capacity.table.share'), align: 'right', render: (_v, r) => formatPercent(r.rate / 10_000) },
          {
            key: 'actions',
            title: t('capacity.table.actions'),
            render: (_v, r) => {
              const listed = quickIds.has(thirdId(r.things_id) ?? '');
              const hint = !listed ? (
                <span>
                  {t('capacity.quickDelete.notListed')}{' '}
                  <Link to="/Container/UserManager/UserCenter">{t('capacity.quickDelete.userCentre')}</Link>
                </span>
              ) : (
                t('capacity.quickDelete.title')
              );
              return (
                mayCall(Routes.data.createQuickDelete) && (
                  <Tooltip title={hint}>
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      disabled={!listed}
                      data-testid="quick-delete"
                      onClick={() => setDeleting({ id: r.things_id, label: `${r.name ?? '--'} (${thirdId(r.things_id) ?? r.things_id})` })}
                    >
                      {t('capacity.quickDelete.button')}
                    </Button>
                  </Tooltip>
                )
              );
            },
          },
        ]}
      />
      <QuickDeleteDialog tenantId={tenantId} device={deleting} onClose={() => setDeleting(null)} onFinished={finished} />
    </>
  );
}
