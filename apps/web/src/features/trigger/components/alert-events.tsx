import { ReloadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { AlertEvent } from '@loggerhead/contract/schemas/alert.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRange } from '../../../components/data-view/date-range.tsx';
import { Paginator } from '../../../components/data-view/paginator.tsx';
import { firstPage, type PageState } from '../../../components/data-view/paging.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';
import { type EventFilter, triggerApi } from '../api/trigger.api.ts';
import { eventListQuery, ruleListQuery, triggerKeys } from '../api/trigger.queries.ts';

const DAY = 86_400_000;
const STATUSES = [0, 1, 2, 3] as const;

interface Props {
  tenantId: string;
  thingsId: string;
}

/** Alert events of one device: filters (time, rule, level, status), handle, delete, delete all. */
export function AlertEvents({ tenantId, thingsId }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  // Until a range is picked: the last 7 days up to the latest refresh, so new events come into view.
  const [picked, setPicked] = useState<[number, number] | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const range: [number, number] = picked ?? [now - 7 * DAY, now];
  const [ruleId, setRuleId] = useState<string | undefined>();
  const [level, setLevel] = useState<EventFilter['level']>();
  const [handlerStatus, setHandlerStatus] = useState<number | undefined>();
  const [page, setPage] = useState<PageState>(firstPage());
  const [handling, setHandling] = useState<AlertEvent | null>(null);
  const filter: EventFilter = {
    things_id: thingsId,
    begin_time: range[0],
    end_time: range[1],
    rule_id: ruleId,
    level,
    handler_status: handlerStatus,
  };
  const q = useQuery(eventListQuery(tenantId, filter, page.page, page.size));
  const rules = useQuery(ruleListQuery(tenantId, { things_id: thingsId, current_page: 1, page_size: 100 }));
  const refresh = () => qc.invalidateQueries({ queryKey: triggerKeys.events(tenantId) });
  const remove = useMutation({ mutationFn: (id: string) => triggerApi.removeEvent(tenantId, id), onSuccess: refresh });
  const removeAll = useMutation({
    mutationFn: () => triggerApi.removeAllEvents(tenantId, filter),
    onSuccess: (r) => {
      message.success(t('trigger.events.deletedAll', { count: r.deleted }));
      return refresh();
    },
  });
  const statusText = (s: number) => t(`trigger.events.status.${s}`);
  const reset = () => setPage((p) => firstPage(p.size));

  return (
    <div data-testid="alert-events">
      <Space wrap style={{ marginBottom: 12 }}>
        <DateRange
          value={range}
          onChange={(r) => {
            setPicked(r);
            reset();
          }}
        />
        <Select
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t('trigger.events.rule')}
          value={ruleId}
          onChange={(v) => {
            setRuleId(v);
            reset();
          }}
          options={(rules.data?.list ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
        <Select
          allowClear
          style={{ minWidth: 120 }}
          placeholder={t('trigger.field.level')}
          value={level}
          onChange={(v) => {
            setLevel(v);
            reset();
          }}
          options={[
            { value: 'ordinary', label: t('trigger.level.ordinary') },
            { value: 'urgent', label: t('trigger.level.urgent') },
          ]}
        />
        <Select
          allowClear
          style={{ minWidth: 120 }}
          placeholder={t('trigger.events.handlerStatus')}
          value={handlerStatus}
          onChange={(v) => {
            setHandlerStatus(v);
            reset();
          }}
          options={STATUSES.map((s) => ({ value: s, label: statusText(s) }))}
        />
        <Button
          icon={<ReloadOutlined />}
          loading={q.isFetching}
          onClick={() => {
            setNow(Date.now());
            void refresh();
          }}
          data-testid="events-refresh"
        >
          {t('trigger.events.refresh')}
        </Button>
        {mayCall(Routes.alertEvents.removeAll) && (
          <Popconfirm title={t('trigger.events.confirmDeleteAll')} onConfirm={() => removeAll.mutate()}>
            <Button danger loading={removeAll.isPending} disabled={!q.data?.total} data-testid="events-delete-all">
              {t('trigger.events.deleteAll')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      <Table<AlertEvent>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        pagination={false}
        columns={[
          { title: t('trigger.events.time'), dataIndex: 'created_at', render: (v: string) => formatDateTime(v) },
          { title: t('trigger.events.rule'), dataIndex: 'rule_name' },
          { title: t('trigger.events.detail'), key: 'detail', render: (_, e) => eventDetail(e, t) },
          {
            title: t('trigger.field.level'),
            dataIndex: 'level',
            render: (l: string) => (
              <Tag color={l === 'urgent' ? 'red' : 'blue'}>{l === 'urgent' ? t('trigger.level.urgent') : t('trigger.level.ordinary')}</Tag>
            ),
          },
          { title: t('trigger.events.handlerStatus'), dataIndex: 'handler_status', render: (s: number) => statusText(s) },
          { title: t('trigger.events.handler'), dataIndex: 'handler', render: (h: string | null) => h ?? '--' },
          { title: t('trigger.events.recovered'), dataIndex: 'recovered_at', render: (v: string | null) => formatDateTime(v) },
          {
            title: t('trigger.list.actions'),
            key: 'actions',
            render: (_, e) => (
              <Space>
                {mayCall(Routes.alertEvents.handle) && (
                  <Button size="small" type="link" onClick={() => setHandling(e)}>
                    {t('trigger.events.handle')}
                  </Button>
                )}
                {mayCall(Routes.alertEvents.remove) && (
                  <Popconfirm title={t('trigger.events.confirmDelete')} onConfirm={() => remove.mutate(e.id)}>
                    <Button size="small" type="link" danger>
                      {t('trigger.list.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <div style={{ marginTop: 8 }}>
        <Paginator value={page} total={q.data?.total ?? 0} onChange={setPage} />
      </div>
      {handling && <HandleDialog tenantId={tenantId} event={handling} onClose={() => setHandling(null)} onDone={refresh} />}
    </div>
  );
}

interface HandleValues {
  handler?: string;
  handler_status: number;
  handler_description?: string;
}

function HandleDialog({
  tenantId,
  event,
  onClose,
  onDone,
}: {
  tenantId: string;
  event: AlertEvent;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<HandleValues>();
  const save = useMutation({
    mutationFn: (v: HandleValues) =>
      triggerApi.handle(tenantId, event.id, {
        handler: v.handler?.trim() || undefined,
        handler_status: v.handler_status,
        handler_description: v.handler_description ?? '',
      }),
    onSuccess: () => {
      onDone();
      onClose();
    },
  });
  return (
    <Modal open title={t('trigger.events.handle')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={save.isPending}>
      <Form<HandleValues>
        form={form}
        layout="vertical"
        initialValues={{
          handler: event.handler ?? '',
          handler_status: event.handler_status,
          handler_description: event.handler_description ?? '',
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="handler" label={t('trigger.events.handler')} rules={[{ max: 64 }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="handler_status" label={t('trigger.events.handlerStatus')} rules={[{ required: true }]}>
          <Select options={STATUSES.map((s) => ({ value: s, label: t(`trigger.events.status.${s}`) }))} />
        </Form.Item>
        <Form.Item name="handler_description" label={t('trigger.events.description')} rules={[{ max: 500 }]}>
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** What the event saw: the frame and the value, or the position and the fence. */
function eventDetail(e: AlertEvent, t: (key: string, o?: Record<string, unknown>) => string): string {
  const d = (e.event_data ?? {}) as Record<string, unknown>;
  if (typeof d.frame_id === 'string') {
    const value = d.value === null || d.value === undefined ? '' : ` = ${d.value}`;
    return `CAN${d.channel ?? ''} ${d.frame_id}${value}`;
  }
  if (typeof d.lat === 'number' && typeof d.lon === 'number')
    return t(d.inside ? 'trigger.events.entered' : 'trigger.events.left', { fence: String(d.fence_name ?? ''), lat: d.lat, lon: d.lon });
  return '-';
}
