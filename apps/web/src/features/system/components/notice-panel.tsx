import type { Notice } from '@loggerhead/contract/schemas/notice.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Segmented, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMPTY, formatDateTime } from '../../../lib/format.ts';
import { type NoticeFilter, noticeListQuery, systemApi, systemKeys } from '../api/system.api.ts';
import { NoticeEditor, NoticePreview } from './notice-editor.tsx';

export type NoticeState = 'draft' | 'scheduled' | 'published' | 'ended';

/** Where a notice stands now: not published (a draft or withdrawn), waiting for its start, showing, or over. */
export function noticeState(n: Pick<Notice, 'isShow' | 'kind' | 'startTime' | 'endTime'>, now = Date.now()): NoticeState {
  if (!n.isShow) return 'draft';
  if (n.endTime && Date.parse(n.endTime) <= now) return 'ended';
  // An upgrade notice shows ahead of its maintenance window; a plain one from its start.
  if (n.kind === 'notice' && n.startTime && Date.parse(n.startTime) > now) return 'scheduled';
  return 'published';
}

const STATE_COLOR: Record<NoticeState, string> = { draft: 'default', scheduled: 'blue', published: 'green', ended: 'orange' };

/**
 * Announcements and upgrade notices (spec §1, §7 /out-web/notice): the system manager writes them,
 * schedules them (start/end), aims them at a platform and version, previews, publishes and withdraws.
 */
export function NoticePanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [filter, setFilter] = useState<NoticeFilter>({ current_page: 1, page_size: 10 });
  const list = useQuery(noticeListQuery(filter));
  const [editing, setEditing] = useState<Notice | 'new' | null>(null);
  const [preview, setPreview] = useState<Notice | null>(null);

  const done = (text: string) => {
    void message.success(text);
    void qc.invalidateQueries({ queryKey: systemKeys.notices() });
  };
  const publish = useMutation({
    mutationFn: ({ id, isShow }: { id: string; isShow: boolean }) => systemApi.updateNotice(id, { isShow }),
    onSuccess: (n) => done(t(n.isShow ? 'system.notice.published' : 'system.notice.withdrawn')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => systemApi.removeNotice(id),
    onSuccess: () => done(t('system.notice.deleted')),
  });

  const platformName = (p: number | null) => t(`system.notice.platform.${p === null ? 'all' : p === 1 ? 'extension' : 'standard'}`);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <Segmented<'all' | 'notice' | 'upgrade'>
          value={filter.kind ?? 'all'}
          onChange={(v) => setFilter((f) => ({ ...f, current_page: 1, kind: v === 'all' ? undefined : v }))}
          options={[
            { value: 'all', label: t('system.common.all') },
            { value: 'notice', label: t('system.notice.kind.notice') },
            { value: 'upgrade', label: t('system.notice.kind.upgrade') },
          ]}
        />
        <Button type="primary" data-testid="notice-new" onClick={() => setEditing('new')}>
          {t('system.notice.new')}
        </Button>
      </Space>
      <Table<Notice>
        rowKey="id"
        size="middle"
        data-testid="notice-table"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{
          current: filter.current_page,
          pageSize: filter.page_size,
          total: list.data?.total ?? 0,
          showTotal: (total) => t('system.common.total', { total }),
          onChange: (current_page, page_size) => setFilter((f) => ({ ...f, current_page, page_size })),
        }}
        columns={[
          { title: t('system.notice.title'), dataIndex: 'title', ellipsis: true },
          {
            title: t('system.notice.kindLabel'),
            dataIndex: 'kind',
            width: 110,
            render: (v: Notice['kind']) => t(`system.notice.kind.${v}`),
          },
          { title: t('system.notice.platformLabel'), dataIndex: 'platform', width: 110, render: platformName },
          { title: t('system.notice.version'), dataIndex: 'version', width: 100, render: (v: string | null) => v ?? EMPTY },
          {
            title: t('system.notice.window'),
            width: 300,
            render: (_: unknown, r) =>
              r.startTime || r.endTime
                ? `${r.startTime ? formatDateTime(r.startTime, 'YYYY-MM-DD HH:mm') : EMPTY} – ${r.endTime ? formatDateTime(r.endTime, 'YYYY-MM-DD HH:mm') : EMPTY}`
                : EMPTY,
          },
          {
            title: t('system.notice.stateLabel'),
            width: 100,
            render: (_: unknown, r) => {
              const s = noticeState(r);
              return <Tag color={STATE_COLOR[s]}>{t(`system.notice.state.${s}`)}</Tag>;
            },
          },
          {
            title: t('system.common.actions'),
            width: 260,
            render: (_: unknown, r) => (
              <Space size={0} wrap>
                <Button type="link" size="small" onClick={() => setPreview(r)}>
                  {t('system.notice.preview')}
                </Button>
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  {t('system.notice.edit')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  data-testid={`notice-toggle-${r.title}`}
                  loading={publish.isPending && publish.variables?.id === r.id}
                  onClick={() => publish.mutate({ id: r.id, isShow: !r.isShow })}
                >
                  {t(r.isShow ? 'system.notice.withdraw' : 'system.notice.publish')}
                </Button>
                <Popconfirm title={t('system.notice.confirmDelete')} onConfirm={() => remove.mutate(r.id)}>
                  <Button type="link" size="small" danger>
                    {t('system.notice.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <NoticeEditor
        notice={editing === 'new' ? null : editing}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={(n) => done(t(n.isShow ? 'system.notice.published' : 'system.common.saved'))}
      />
      <NoticePreview notice={preview} onClose={() => setPreview(null)} />
    </Space>
  );
}
