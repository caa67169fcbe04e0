import type { DbcMessageInfo, DbcSignalInfo } from '@loggerhead/contract/schemas/dbc.ts';
import { Flex, Input, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY } from '../../../lib/format.ts';

export const canIdText = (id: number, ext: boolean) =>
  `0x${id
    .toString(16)
    .toUpperCase()
    .padStart(ext ? 8 : 3, '0')}`;

/**
 * The messages of a DBC file and the signals of the chosen one. Both tables are virtual
 * (only rows in view are in the page), so a file with thousands of signals stays quick.
 */
export function DbcMessagesView({ messages, loading, height = 420 }: { messages: DbcMessageInfo[]; loading?: boolean; height?: number }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    if (!k) return messages;
    return messages.filter(
      (m) =>
        m.name.toLowerCase().includes(k) ||
        canIdText(m.id, m.ext).toLowerCase().includes(k) ||
        m.signals.some((s) => s.name.toLowerCase().includes(k)),
    );
  }, [messages, keyword]);
  const current = shown.find((m) => m.name === chosen) ?? shown[0] ?? null;

  const msgColumns: ColumnsType<DbcMessageInfo> = [
    { key: 'id', title: t('dbc.msg.id'), width: 120, render: (_v, m) => <span className="lh-mono">{canIdText(m.id, m.ext)}</span> },
    { key: 'name', title: t('dbc.msg.name'), dataIndex: 'name', ellipsis: true },
    { key: 'length', title: t('dbc.msg.length'), dataIndex: 'length', width: 70, align: 'right' },
    { key: 'signals', title: t('dbc.msg.signals'), width: 70, align: 'right', render: (_v, m) => m.signals.length },
    { key: 'cycle', title: t('dbc.msg.cycle'), width: 90, align: 'right', render: (_v, m) => m.cycle_time ?? EMPTY },
  ];
  const sigColumns: ColumnsType<DbcSignalInfo> = [
    { key: 'name', title: t('dbc.sig.name'), dataIndex: 'name', width: 180, ellipsis: true },
    { key: 'bits', title: t('dbc.sig.bits'), width: 110, render: (_v, s) => `${s.start_bit} | ${s.length}` },
    { key: 'order', title: t('dbc.sig.order'), width: 90, render: (_v, s) => (s.byte_order === 'intel' ? 'Intel' : 'Motorola') },
    {
      key: 'type',
      title: t('dbc.sig.type'),
      width: 90,
      render: (_v, s) => (s.value_type === 'integer' ? (s.signed ? 'signed' : 'unsigned') : s.value_type),
    },
    { key: 'factor', title: t('dbc.sig.scale'), width: 130, render: (_v, s) => `${s.factor}, ${s.offset}` },
    { key: 'range', title: t('dbc.sig.range'), width: 140, render: (_v, s) => `[${s.min}, ${s.max}]` },
    { key: 'unit', title: t('dbc.sig.unit'), dataIndex: 'unit', width: 80, render: (u: string) => u || EMPTY },
    {
      key: 'mux',
      title: t('dbc.sig.mux'),
      width: 90,
      render: (_v, s) => (s.multiplexer === 'switch' ? <Tag>M</Tag> : s.multiplexer ? <Tag>m</Tag> : EMPTY),
    },
    {
      key: 'comment',
      title: t('dbc.sig.comment'),
      ellipsis: true,
      render: (_v, s) =>
        s.comment ||
        (s.values
          ? Object.entries(s.values)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')
          : EMPTY),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="dbc-messages">
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Input.Search
          allowClear
          placeholder={t('dbc.msg.search')}
          style={{ width: 280 }}
          onSearch={setKeyword}
          onChange={(e) => !e.target.value && setKeyword('')}
        />
        <Typography.Text type="secondary">
          {t('dbc.msg.count', { messages: messages.length, signals: messages.reduce((n, m) => n + m.signals.length, 0) })}
        </Typography.Text>
      </Flex>
      <Table<DbcMessageInfo>
        size="small"
        virtual
        loading={loading}
        rowKey={(m) => `${m.ext ? 'x' : 's'}${m.id}-${m.name}`}
        columns={msgColumns}
        dataSource={shown}
        pagination={false}
        scroll={{ x: 520, y: Math.round(height / 2) }}
        onRow={(m) => ({ onClick: () => setChosen(m.name), style: { cursor: 'pointer' } })}
        rowClassName={(m) => (m === current ? 'ant-table-row-selected' : '')}
        data-testid="dbc-message-table"
      />
      <Typography.Text strong>
        {current ? t('dbc.sig.of', { name: current.name, id: canIdText(current.id, current.ext) }) : t('dbc.sig.none')}
      </Typography.Text>
      <Table<DbcSignalInfo>
        size="small"
        virtual
        rowKey="name"
        columns={sigColumns}
        dataSource={current?.signals ?? []}
        pagination={false}
        scroll={{ x: 1000, y: Math.round(height / 2) }}
        data-testid="dbc-signal-table"
      />
    </Flex>
  );
}
