import type { UserMessage } from '@loggerhead/contract/schemas/message.ts';
import { Badge, Button, Empty, List, Pagination, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';

/** The inbox in the message bell's pop-over (message-bell.tsx), ten at a time, with its two actions. */
export default function MessageList({
  list,
  loading,
  total,
  page,
  unread,
  onPage,
  onOpen,
  onMarkAllRead,
  onDeleteAll,
}: {
  list: readonly UserMessage[];
  loading: boolean;
  total: number;
  page: number;
  unread: number;
  onPage: (page: number) => void;
  onOpen: (m: UserMessage) => void;
  onMarkAllRead: () => void;
  onDeleteAll: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  return (
    <div className="lh-messages" data-testid="message-list">
      {list.length === 0 ? (
        <Empty description={t('app.header.noMessages')} image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <List
          size="small"
          loading={loading}
          dataSource={[...list]}
          renderItem={(m) => (
            <List.Item className="lh-messages__item" onClick={() => onOpen(m)}>
              <List.Item.Meta
                title={
                  <Space size={6}>
                    {m.read_status === 0 && <Badge status="processing" />}
                    <Typography.Text strong={m.read_status === 0} ellipsis style={{ maxWidth: 260 }}>
                      {m.messageTitle}
                    </Typography.Text>
                  </Space>
                }
                description={formatDateTime(m.send_time)}
              />
            </List.Item>
          )}
        />
      )}
      {total > 10 && <Pagination size="small" current={page} pageSize={10} total={total} onChange={onPage} showSizeChanger={false} />}
      <div className="lh-messages__actions">
        <Button size="small" disabled={unread === 0} onClick={onMarkAllRead}>
          {t('app.messages.markAllRead')}
        </Button>
        <Popconfirm
          title={t('app.messages.deleteAllConfirm')}
          okText={t('common.action.ok')}
          cancelText={t('common.action.cancel')}
          onConfirm={onDeleteAll}
        >
          <Button size="small" danger disabled={list.length === 0}>
            {t('app.messages.deleteAll')}
          </Button>
        </Popconfirm>
      </div>
    </div>
  );
}
