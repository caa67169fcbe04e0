import { WORK_ORDER_REPLY_STATUSES, type WorkOrderDetail } from '@loggerhead/contract/schemas/workorder.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { type Side, workOrderApi } from '../api/workorder.api.ts';
import { workOrderKeys } from '../api/workorder.queries.ts';

/** Writing to the other side while the order is being handled (a history entry that keeps the status). */
export function ReplyBox({ order, side, tenantId }: { order: WorkOrderDetail; side: Side; tenantId: string }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const send = useMutation({
    mutationFn: (remark: string) => workOrderApi.reply(side, tenantId, order.id, remark),
    meta: { silent: true },
    onSuccess: () => {
      setText('');
      void message.success(t('workorder.reply.sent'));
      void qc.invalidateQueries({ queryKey: workOrderKeys.all });
    },
    onError: (e) => void message.error(errorText(e, t, (k) => i18n.exists(k))),
  });
  if (!WORK_ORDER_REPLY_STATUSES.includes(order.status)) return null;
  return (
    <Space.Compact style={{ width: '100%', marginTop: 16 }}>
      <Input.TextArea
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={500}
        autoSize={{ minRows: 2, maxRows: 6 }}
        placeholder={t('workorder.reply.placeholder')}
        aria-label={t('workorder.reply.label')}
        data-testid="workorder-reply"
      />
      <Button type="primary" loading={send.isPending} disabled={!text.trim()} onClick={() => send.mutate(text.trim())}>
        {t('workorder.reply.send')}
      </Button>
    </Space.Compact>
  );
}
