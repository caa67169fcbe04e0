import { BellOutlined } from '@ant-design/icons';
import type { UserMessage } from '@loggerhead/contract/schemas/message.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Modal, Popover, Spin, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format.ts';
import { messagePageQuery, shellApi, shellKeys, unreadMessagesQuery } from './shell.queries.ts';
import { useMessagePush } from './use-message-push.ts';

/** The inbox list loads when the bell is first opened. */
const MessageList = lazy(() => import('./message-list.tsx'));

const light = { color: 'rgba(255,255,255,0.85)' };

/**
 * The message bell (spec §2, §4): unread badge, the inbox ten at a time, mark all read,
 * delete all (after confirmation). Opening a message marks it read; an unread
 * dialog-mode message pops up by itself and is marked read.
 */
export function MessageBell({ tenantId, userId }: { tenantId: string | null; userId: string | null }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  // The list is loaded and mounted from the first opening on (it stays for the closing animation).
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<UserMessage | null>(null);
  const unread = useQuery(unreadMessagesQuery(tenantId, userId));
  useMessagePush(tenantId, userId);
  const inbox = useQuery({ ...messagePageQuery(tenantId, userId, page), enabled: open && Boolean(tenantId && userId) });

  const update = useMutation({
    mutationFn: (body: { user_message_id?: string; update_all?: boolean; read_status: 1 | 2 }) =>
      shellApi.updateMessages(tenantId ?? '', userId ?? '', body),
    onSuccess: () => qc.invalidateQueries({ queryKey: shellKeys.messages() }),
  });

  const show = (m: UserMessage) => {
    setShown(m);
    if (m.read_status === 0) update.mutate({ user_message_id: m.id, read_status: 1 });
  };

  // A dialog-mode message pops up once it arrives (spec §3 reminderMode 2).
  const popup = unread.data?.list.find((m) => m.reminderMode === 2);
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to a new pop-up message only, not to every refetch
  useEffect(() => {
    if (popup && !shown) show(popup);
  }, [popup?.id]);

  const count = unread.data?.unread ?? 0;
  const list = inbox.data?.list ?? [];
  const content = opened ? (
    <Suspense fallback={<Spin size="small" />}>
      <MessageList
        list={list}
        loading={inbox.isFetching}
        total={inbox.data?.total ?? 0}
        page={page}
        unread={count}
        onPage={setPage}
        onOpen={(m) => {
          setOpen(false);
          show(m);
        }}
        onMarkAllRead={() => update.mutate({ update_all: true, read_status: 1 })}
        onDeleteAll={() => update.mutateAsync({ update_all: true, read_status: 2 })}
      />
    </Suspense>
  ) : null;

  return (
    <>
      <Popover
        trigger="click"
        placement="bottomRight"
        title={t('app.header.messages')}
        content={content}
        open={open}
        onOpenChange={setOpen}
      >
        <Badge count={count} size="small" offset={[-4, 4]}>
          <Button type="text" style={light} icon={<BellOutlined />} aria-label={t('app.header.messages')} data-testid="message-bell" />
        </Badge>
      </Popover>
      <Modal
        open={shown !== null}
        title={shown?.messageTitle}
        onCancel={() => setShown(null)}
        footer={
          <Button type="primary" onClick={() => setShown(null)}>
            {t('common.action.close')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">{formatDateTime(shown?.send_time)}</Typography.Paragraph>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{shown?.messageContent}</Typography.Paragraph>
      </Modal>
    </>
  );
}
