import type { WorkOrderDetail, WorkOrderStatus } from '@loggerhead/contract/schemas/workorder.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, type ButtonProps, Checkbox, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Side, workOrderApi } from '../api/workorder.api.ts';
import { workOrderKeys } from '../api/workorder.queries.ts';
import { canApply, moveLabelKey, movesFor } from './workorder.logic.ts';

interface Values {
  remark: string;
  apply: boolean;
}

/**
 * The buttons of the moves open to the viewer's side (WORK_ORDER_TRANSITIONS of the
 * contract), each asking for a remark first; a handler may apply a capacity request.
 */
export function MoveButtons({ order, side }: { order: WorkOrderDetail; side: Side }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [to, setTo] = useState<WorkOrderStatus | null>(null);
  const moves = movesFor(order.status, side);

  const move = useMutation({
    mutationFn: (v: Values & { to: WorkOrderStatus }) =>
      workOrderApi.move(side, order.tenant_id, order.id, v.to, { remark: v.remark ?? '', apply: v.apply || undefined }),
    onSuccess: (next) => {
      qc.setQueryData(workOrderKeys.detail(side, order.id), next);
      void qc.invalidateQueries({ queryKey: workOrderKeys.lists() });
      void message.success(t('workorder.move.done'));
      setTo(null);
    },
  });

  if (moves.length === 0) {
    return <Typography.Text type="secondary">{t('workorder.move.none')}</Typography.Text>;
  }
  return (
    <>
      <Space wrap data-testid="workorder-moves">
        {moves.map((m) => (
          <Button
            key={m}
            type={m === 'refuse' || m === 'abandon' ? 'default' : 'primary'}
            danger={m === 'refuse' || m === 'abandon'}
            data-testid={`move-${m}`}
            onClick={() => {
              form.setFieldsValue({ remark: '', apply: canApply(order, m) });
              setTo(m);
            }}
          >
            {t(moveLabelKey(order.status, m))}
          </Button>
        ))}
      </Space>
      <Modal
        open={to !== null}
        title={to ? t(moveLabelKey(order.status, to)) : ''}
        okText={t('common.action.ok')}
        cancelText={t('common.action.cancel')}
        confirmLoading={move.isPending}
        okButtonProps={{ 'data-testid': 'move-ok' } as ButtonProps}
        onOk={() => form.submit()}
        onCancel={() => setTo(null)}
        forceRender
      >
        <Form<Values> form={form} layout="vertical" name="workorder-move" onFinish={(v) => to && move.mutate({ ...v, to })}>
          <Form.Item
            name="remark"
            label={t('workorder.field.remark')}
            rules={[
              { max: 500, message: t('workorder.form.remarkMax') },
              // A refusal without a reason leaves the initiator guessing.
              { required: to === 'refuse', message: t('workorder.form.remarkRequired') },
            ]}
          >
            <Input.TextArea rows={4} placeholder={t('workorder.form.remarkPlaceholder')} data-testid="move-remark" />
          </Form.Item>
          {side === 'handler' && to && canApply(order, to) && (
            <Form.Item name="apply" valuePropName="checked">
              <Checkbox data-testid="move-apply">{t('workorder.capacity.apply')}</Checkbox>
            </Form.Item>
          )}
        </Form>
      </Modal>
    </>
  );
}
