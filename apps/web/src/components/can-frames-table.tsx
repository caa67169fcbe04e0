import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_CAN_COMMAND_FRAMES } from '@loggerhead/contract/schemas/command.ts';
import { Button, Checkbox, Flex, Input, InputNumber, Space, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { canAddFrame, emptyFrameRow, type FrameRow, frameErrors } from '../lib/can-frames.ts';

/**
 * The CAN / CAN FD frames of a `common_fn.send_can` (up to 100): channel, id, flags and data per row,
 * each row checked as the server and the device will. Used by the command sender and by the send
 * steps of test routines.
 */
export function CanFramesTable({ rows, onChange }: { rows: FrameRow[]; onChange: (rows: FrameRow[]) => void }) {
  const { t } = useTranslation();
  const errors = rows.map(frameErrors);
  const update = (key: number, patch: Partial<FrameRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const setRows = (next: (rs: FrameRow[]) => FrameRow[]) => onChange(next(rows));
  const add = () => {
    if (!canAddFrame(rows.length)) return;
    onChange([...rows, emptyFrameRow(Math.max(0, ...rows.map((r) => r.key)) + 1)]);
  };
  return (
    <>
      <Table<FrameRow>
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={rows}
        scroll={{ y: 320 }}
        columns={[
          { key: 'n', title: '#', width: 48, render: (_v, _r, i) => i + 1 },
          {
            key: 'channel',
            title: t('common.frames.channel'),
            width: 80,
            render: (_v, r) => (
              <InputNumber
                size="small"
                min={0}
                max={15}
                style={{ width: '100%' }}
                value={r.channel}
                aria-label={t('common.frames.channel')}
                onChange={(v) => update(r.key, { channel: v ?? 0 })}
              />
            ),
          },
          {
            key: 'id',
            title: t('common.frames.id'),
            width: 130,
            render: (_v, r) => (
              <Input
                size="small"
                className="lh-mono"
                value={r.id}
                placeholder={r.ext ? '1FFFFFFF' : '7FF'}
                aria-label={t('common.frames.id')}
                status={r.id !== '' && errors[rows.indexOf(r)]?.some((e) => e.startsWith('id')) ? 'error' : undefined}
                onChange={(e) => update(r.key, { id: e.target.value })}
              />
            ),
          },
          {
            key: 'flags',
            title: t('common.frames.flags'),
            width: 250,
            render: (_v, r) => (
              <Space size={4} style={{ whiteSpace: 'nowrap' }}>
                <Checkbox checked={r.ext} onChange={(e) => update(r.key, { ext: e.target.checked })}>
                  {t('common.frames.ext')}
                </Checkbox>
                <Checkbox checked={r.fd} onChange={(e) => update(r.key, { fd: e.target.checked, brs: e.target.checked && r.brs })}>
                  FD
                </Checkbox>
                <Checkbox checked={r.brs} disabled={!r.fd} onChange={(e) => update(r.key, { brs: e.target.checked })}>
                  BRS
                </Checkbox>
              </Space>
            ),
          },
          {
            key: 'data',
            title: t('common.frames.data'),
            render: (_v, r) => {
              const errs = errors[rows.indexOf(r)] ?? [];
              const shown = errs.filter((e) => r.id !== '' || !e.startsWith('id'));
              return (
                <>
                  <Input
                    size="small"
                    className="lh-mono"
                    value={r.data}
                    placeholder="11 22 33"
                    aria-label={t('common.frames.data')}
                    status={errs.some((e) => !e.startsWith('id') && e !== 'brsNeedsFd') ? 'error' : undefined}
                    onChange={(e) => update(r.key, { data: e.target.value })}
                  />
                  {shown.length > 0 && (
                    <Typography.Text type="danger" style={{ fontSize: 12 }}>
                      {shown.map((e) => t(`common.frames.error.${e}`)).join('; ')}
                    </Typography.Text>
                  )}
                </>
              );
            },
          },
          {
            key: 'del',
            width: 48,
            render: (_v, r) => (
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.frames.remove')}
                disabled={rows.length === 1}
                onClick={() => setRows((rs) => rs.filter((x) => x.key !== r.key))}
              />
            ),
          },
        ]}
      />
      <Flex gap={12} wrap align="center" style={{ marginTop: 12 }}>
        <Button size="small" icon={<PlusOutlined />} disabled={!canAddFrame(rows.length)} onClick={add}>
          {t('common.frames.add')}
        </Button>
        <Typography.Text type="secondary">{t('common.frames.count', { count: rows.length, max: MAX_CAN_COMMAND_FRAMES })}</Typography.Text>
      </Flex>
    </>
  );
}
