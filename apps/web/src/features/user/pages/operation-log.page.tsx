import { useQuery } from '@tanstack/react-query';
import { Button, Card, DatePicker, Form, Input, Select, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../session/use-session.ts';
import { type OpLog, type OpLogFilter, opLogQuery } from '../api/user.api.ts';

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
const METHOD_COLOR: Record<string, string> = { POST: 'green', PUT: 'blue', PATCH: 'cyan', DELETE: 'red' };

interface Filters {
  username?: string;
  method?: OpLogFilter['method'];
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** Spec §9: paging stops where page × size would pass 10000 rows. */
const MAX_ROWS = 10_000;

/** Operation log (UserManager/Log): who changed what, when and from where, filtered and paged. */
export default function OperationLogPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [form] = Form.useForm<Filters>();
  const [filter, setFilter] = useState<OpLogFilter>({ current_page: 1, page_size: 10 });
  const list = useQuery(opLogQuery(tenantId, filter));

  const apply = (v: Filters) =>
    setFilter((f) => ({
      current_page: 1,
      page_size: f.page_size,
      username: v.username?.trim() || undefined,
      method: v.method,
      start_time: v.range?.[0]?.valueOf(),
      end_time: v.range?.[1]?.valueOf(),
    }));

  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('user.oplog.title')}
      </Typography.Title>
      <Form<Filters> form={form} layout="inline" name="oplog-filter" onFinish={apply} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="username" label={t('user.oplog.who')}>
          <Input allowClear style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="method" label={t('user.oplog.method')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('user.common.all')}
            options={METHODS.map((m) => ({ value: m, label: t(`user.oplog.method.${m}`) }))}
          />
        </Form.Item>
        <Form.Item name="range" label={t('user.oplog.when')}>
          <DatePicker.RangePicker showTime />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('user.common.search')}
          </Button>
        </Form.Item>
        <Form.Item>
          <Button
            onClick={() => {
              form.resetFields();
              apply({});
            }}
          >
            {t('user.common.reset')}
          </Button>
        </Form.Item>
      </Form>
      <Table<OpLog>
        rowKey="id"
        size="middle"
        data-testid="oplog-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: Math.min(list.data?.total ?? 0, MAX_ROWS),
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 30, 40, 50],
          showTotal: () => t('user.common.total', { total: list.data?.total ?? 0 }),
          onChange: (current_page, page_size) => setFilter((f) => ({ ...f, current_page, page_size })),
        }}
        columns={[
          { title: t('user.oplog.when'), dataIndex: 'created_at', width: 180, render: (v: number) => formatDateTime(v) },
          {
            title: t('user.oplog.who'),
            dataIndex: 'username',
            width: 200,
            // A system manager acting in a super-session of the tenant is marked as such.
            render: (v, r: OpLog) => (
              <>
                {v || EMPTY}
                {r.super_session && (
                  <Tag color="red" style={{ marginInlineStart: 6 }} data-testid="oplog-super-session">
                    {t('user.oplog.superSession')}
                  </Tag>
                )}
              </>
            ),
          },
          {
            title: t('user.oplog.method'),
            dataIndex: 'method',
            width: 110,
            render: (m: string) => <Tag color={METHOD_COLOR[m]}>{t(`user.oplog.method.${METHODS.includes(m as never) ? m : 'POST'}`)}</Tag>,
          },
          { title: t('user.oplog.what'), dataIndex: 'path', render: (p: string) => <Typography.Text code>{p}</Typography.Text> },
          {
            title: t('user.oplog.result'),
            dataIndex: 'status',
            width: 100,
            render: (s: number) => <Tag color={s < 400 ? 'green' : 'red'}>{s}</Tag>,
          },
          { title: t('user.oplog.ip'), dataIndex: 'ip', width: 150, render: (v) => v || EMPTY },
        ]}
      />
    </Card>
  );
}
