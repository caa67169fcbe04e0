import { DownloadOutlined, PlusOutlined, ReloadOutlined, StarFilled, StarOutlined, UploadOutlined } from '@ant-design/icons';
import { ThingsRoutes } from '@loggerhead/contract/routes/things.ts';
import type { Thing } from '@loggerhead/contract/schemas/things.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Flex, Select, Space, Tooltip, Typography } from 'antd';
// The search box alone: `Input` from the package index brings its text area, OTP and password too.
import Search from 'antd/es/input/Search';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { groupPickQuery } from '../../../api/groups.api.ts';
import { labelRegistryQuery } from '../../../api/labels.api.ts';
import { type DeviceFilters, thingsApi } from '../../../api/things.api.ts';
import { deviceListQuery, deviceTypesQuery, thingKeys } from '../../../api/things.queries.ts';
import { type ChooserColumn, ColumnChooserTable } from '../../../components/data-view/column-chooser-table.tsx';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { PageCard } from '../../../components/page-card.tsx';
import { DeviceLabelTags } from '../../../components/widgets/device-label-tags.tsx';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { ChannelTags, OnlineState, SdCardState } from '../components/device-cells.tsx';

// The page's dialogs load when first opened: the list shows without their forms, upload and key views.
const AddDeviceDialog = lazy(async () => ({ default: (await import('../components/add-device-dialog.tsx')).AddDeviceDialog }));
const DeviceKeyDialog = lazy(async () => ({ default: (await import('../components/device-key-dialog.tsx')).DeviceKeyDialog }));
const ImportDevicesDialog = lazy(async () => ({ default: (await import('../components/import-devices-dialog.tsx')).ImportDevicesDialog }));
const DeviceLabelEditor = lazy(async () => ({
  default: (await import('../../../components/widgets/device-label-editor.tsx')).DeviceLabelEditor,
}));

/** True from the first time `open` is: a dialog is loaded and mounted when first opened, then stays for its closing animation. */
function useOpenedOnce(open: boolean): boolean {
  const [once, setOnce] = useState(open);
  if (open && !once) setOnce(true);
  return once || open;
}

export const deviceDetailsPath = (id: string) => `/Container/HomePage/DeviceDetails?id=${encodeURIComponent(id)}`;

/** Home page (spec §1, §2): the tenant's devices with their state, and adding devices. */
export default function HomePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [filters, setFilters] = useState<DeviceFilters>({});
  const [paging, setPaging] = useState<PageState>(firstPage());
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [keyOf, setKeyOf] = useState<Thing | null>(null);
  const [labelsOf, setLabelsOf] = useState<Thing | null>(null);
  const addLoaded = useOpenedOnce(adding);
  const importLoaded = useOpenedOnce(importing);
  const keyLoaded = useOpenedOnce(keyOf !== null);
  const labelsLoaded = useOpenedOnce(labelsOf !== null);
  const mayReadLabels = can('tenant:label:query');
  const registry = useQuery(labelRegistryQuery(tenantId, mayReadLabels));
  const mayReadGroups = can('group:group:query');
  const groups = useQuery(groupPickQuery(tenantId, mayReadGroups));

  const query = useMemo(() => ({ ...filters, current_page: paging.page, page_size: paging.size }), [filters, paging]);
  const list = useQuery(deviceListQuery(tenantId, query));
  const types = useQuery(deviceTypesQuery(tenantId));
  const rows = list.data?.list ?? [];

  const filter = (next: Partial<DeviceFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPaging((p) => firstPage(p.size));
  };

  const collect = useMutation({
    mutationFn: (v: { id: string; collected: boolean }) => thingsApi.setCollected(tenantId as string, v.id, v.collected),
    onSuccess: () => qc.invalidateQueries({ queryKey: thingKeys.devices() }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => thingsApi.remove(tenantId as string, id),
    onSuccess: () => {
      void message.success(t('home.delete.done'));
      return qc.invalidateQueries({ queryKey: thingKeys.devices() });
    },
  });
  const saveLabels = useMutation({
    mutationFn: (v: { id: string; labels: Thing['labels'] }) => thingsApi.setLabels(tenantId as string, v.id, v.labels),
    onSuccess: () => {
      setLabelsOf(null);
      void message.success(t('home.labels.saved'));
      return qc.invalidateQueries({ queryKey: thingKeys.devices() });
    },
  });
  const exportCsv = useMutation({
    mutationFn: () => thingsApi.exportCsv(tenantId as string, filters),
    onSuccess: ({ blob, name }) => saveBlob(blob, name),
  });

  const confirmDelete = (thing: Thing) =>
    modal.confirm({
      title: t('home.delete.title'),
      content: t('home.delete.confirm', { name: thing.name }),
      okText: t('home.action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.action.cancel'),
      onOk: () => remove.mutateAsync(thing.id),
    });

  // Buttons inside a row must not also open the device.
  const stop = (e: { stopPropagation: () => void }) => e.stopPropagation();

  const columns: ChooserColumn<Thing>[] = [
    {
      key: 'collected',
      title: t('home.col.collected'),
      width: 72,
      align: 'center',
      render: (r) => (
        <Tooltip title={r.collected ? t('home.action.uncollect') : t('home.action.collect')}>
          <Button
            type="text"
            size="small"
            aria-label={r.collected ? t('home.action.uncollect') : t('home.action.collect')}
            aria-pressed={r.collected}
            data-testid="collect-toggle"
            icon={r.collected ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
            onClick={(e) => {
              stop(e);
              collect.mutate({ id: r.id, collected: !r.collected });
            }}
          />
        </Tooltip>
      ),
    },
    {
      key: 'name',
      title: t('home.col.name'),
      render: (r) => (
        <Typography.Link strong data-testid="device-name">
          {r.name}
        </Typography.Link>
      ),
    },
    {
      key: 'third_things_id',
      title: t('home.col.id'),
      render: (r) => <Typography.Text style={{ fontFamily: 'monospace' }}>{r.third_things_id}</Typography.Text>,
    },
    { key: 'info_model_name', title: t('home.col.type') },
    { key: 'is_online', title: t('home.col.online'), render: (r) => <OnlineState thing={r} /> },
    { key: 'sd_card_status', title: t('home.col.sd'), render: (r) => <SdCardState state={r.sd_card_status} /> },
    { key: 'firmware', title: t('home.col.firmware') },
    { key: 'channels', title: t('home.col.channels'), render: (r) => <ChannelTags thing={r} /> },
    { key: 'labels', title: t('home.col.labels'), render: (r) => <DeviceLabelTags labels={r.labels} registry={registry.data} /> },
    { key: 'last_seen_at', title: t('home.col.lastSeen'), render: (r) => formatDateTime(r.last_seen_at) },
    { key: 'server', title: t('home.col.server'), defaultHidden: true },
    { key: 'description', title: t('home.col.description'), defaultHidden: true, ellipsis: true, width: 200 },
    { key: 'created_at', title: t('home.col.createdAt'), defaultHidden: true, render: (r) => formatDateTime(r.created_at) },
    {
      key: 'actions',
      title: t('home.col.actions'),
      always: true,
      fixed: 'right',
      render: (r) => (
        <Space size={0} onClick={stop}>
          <Button type="link" size="small" onClick={() => navigate(deviceDetailsPath(r.id))}>
            {t('home.action.details')}
          </Button>
          {r.access === 'write' && (
            <>
              {mayReadLabels && can('things:things:update') && (
                <Button type="link" size="small" onClick={() => setLabelsOf(r)} data-testid="edit-labels">
                  {t('home.action.labels')}
                </Button>
              )}
              <Button type="link" size="small" onClick={() => setKeyOf(r)}>
                {t('home.action.key')}
              </Button>
              {can(ThingsRoutes.remove.permission) && (
                <Button type="link" size="small" danger onClick={() => confirmDelete(r)} data-testid="delete-device">
                  {t('home.action.delete')}
                </Button>
              )}
            </>
          )}
        </Space>
      ),
    },
  ];

  const online = rows.filter((r) => r.is_online).length;

  return (
    <PageCard
      title={
        <Flex align="baseline" gap={12}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('home.list.title')}
          </Typography.Title>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal', fontSize: 13 }}>
            {list.data ? t('home.list.summary', { online, count: rows.length }) : EMPTY}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Space wrap>
          {/* Buttons of keys the user lacks are hidden (spec §6), e.g. the read-only experience account's. */}
          {can(ThingsRoutes.import.permission) && (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="import-devices">
              {t('home.list.import')}
            </Button>
          )}
          {can(ThingsRoutes.export.permission) && (
            <Button icon={<DownloadOutlined />} loading={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
              {t('home.list.export')}
            </Button>
          )}
          {can(ThingsRoutes.create.permission) && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="add-device">
              {t('home.list.add')}
            </Button>
          )}
        </Space>
      }
    >
      <ColumnChooserTable<Thing>
        configKey="home.device.table"
        testId="device-table"
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        loading={list.isFetching && !list.data}
        firstIndex={(paging.page - 1) * paging.size + 1}
        onRowClick={(r) => navigate(deviceDetailsPath(r.id))}
        toolbar={
          <>
            <Search
              allowClear
              placeholder={t('home.list.search')}
              style={{ width: 260 }}
              onSearch={(v) => filter({ keyword: v.trim() || undefined })}
              data-testid="device-search"
            />
            <Select
              allowClear
              placeholder={t('home.list.allTypes')}
              aria-label={t('home.list.type')}
              style={{ width: 170 }}
              value={filters.info_model_id}
              onChange={(v) => filter({ info_model_id: v })}
              options={(types.data ?? []).map((ty) => ({ value: ty.id, label: ty.display_name || ty.name }))}
            />
            <Select
              allowClear
              placeholder={t('home.list.allStates')}
              aria-label={t('home.list.state')}
              style={{ width: 140 }}
              value={filters.is_online}
              onChange={(v) => filter({ is_online: v })}
              options={[
                { value: '1', label: t('home.state.online') },
                { value: '0', label: t('home.state.offline') },
              ]}
            />
            {mayReadLabels && (
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('home.list.allLabels')}
                aria-label={t('home.list.label')}
                data-testid="label-filter"
                style={{ width: 160 }}
                value={filters.label}
                onChange={(v) => filter({ label: v, label_value: undefined })}
                options={(registry.data ?? []).map((l) => ({ value: l.id, label: l.label }))}
              />
            )}
            {filters.label && (
              <Search
                allowClear
                placeholder={t('home.list.labelValue')}
                aria-label={t('home.list.labelValue')}
                data-testid="label-value-filter"
                style={{ width: 150 }}
                onSearch={(v) => filter({ label_value: v.trim() || undefined })}
              />
            )}
            {mayReadGroups && (
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                placeholder={t('home.list.allGroups')}
                aria-label={t('home.list.group')}
                data-testid="group-filter"
                style={{ width: 160 }}
                value={filters.group_id}
                onChange={(v) => filter({ group_id: v })}
                options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              />
            )}
            <Checkbox checked={filters.collected === '1'} onChange={(e) => filter({ collected: e.target.checked ? '1' : undefined })}>
              {t('home.list.collectedOnly')}
            </Checkbox>
            <Tooltip title={t('home.list.refresh')}>
              <Button icon={<ReloadOutlined />} aria-label={t('home.list.refresh')} onClick={() => void list.refetch()} />
            </Tooltip>
          </>
        }
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={list.data?.total ?? 0} onChange={setPaging} />
      </div>
      {tenantId && (
        <Suspense fallback={null}>
          {addLoaded && (
            <AddDeviceDialog
              open={adding}
              tenantId={tenantId}
              types={types.data ?? []}
              onClose={() => setAdding(false)}
              onCreated={(thing) => {
                setAdding(false);
                void message.success(t('home.add.done'));
                setKeyOf(thing);
              }}
            />
          )}
          {keyLoaded && <DeviceKeyDialog tenantId={tenantId} thing={keyOf} onClose={() => setKeyOf(null)} />}
          {labelsLoaded && (
            <DeviceLabelEditor
              open={labelsOf !== null}
              labels={labelsOf?.labels ?? []}
              registry={registry.data}
              saving={saveLabels.isPending}
              onSave={(labels) => labelsOf && saveLabels.mutate({ id: labelsOf.id, labels })}
              onClose={() => setLabelsOf(null)}
            />
          )}
          {importLoaded && <ImportDevicesDialog open={importing} tenantId={tenantId} onClose={() => setImporting(false)} />}
        </Suspense>
      )}
    </PageCard>
  );
}
