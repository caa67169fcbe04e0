import { UploadOutlined } from '@ant-design/icons';
import type { Order } from '@loggerhead/contract/schemas/orders.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Modal, Skeleton, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format.ts';
import { billingApi, billingKeys } from '../api/billing.api.ts';

/** Paying an order: the transfer's amount, reference and account, then the receipt. */
export function PayDialog({ tenantId, order, onClose }: { tenantId: string; order: Order | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const pay = useQuery({
    queryKey: [...billingKeys.all, 'pay', order?.id],
    queryFn: () => billingApi.pay(tenantId, (order as Order).id),
    enabled: order !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
  });
  const upload = useMutation({
    mutationFn: (file: File) => billingApi.uploadReceipt(tenantId, (order as Order).id, file),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: billingKeys.all });
      void message.success(t('billing.pay.uploaded'));
      onClose();
    },
  });
  const i = pay.data?.instructions;
  return (
    <Modal open={order !== null} title={t('billing.pay.title')} footer={null} onCancel={onClose} destroyOnHidden width={600}>
      {!i ? (
        <Skeleton active />
      ) : (
        <div data-testid="pay-dialog">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('billing.pay.amount')}>
              <Typography.Text strong>{formatMoney(i.amount)}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.pay.reference')}>
              <Typography.Text copyable data-testid="pay-reference">
                {i.reference}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.pay.account')}>
              {i.account ? <Typography.Text copyable>{i.account}</Typography.Text> : t('billing.pay.noAccount')}
            </Descriptions.Item>
          </Descriptions>
          <Alert type="info" showIcon message={t('billing.pay.steps')} style={{ margin: '12px 0' }} />
          {pay.data?.order.state === 'paid' || pay.data?.order.state === 'active' ? null : (
            <Upload
              accept="image/png,image/jpeg,image/webp,application/pdf"
              maxCount={1}
              showUploadList={false}
              beforeUpload={(file) => {
                upload.mutate(file);
                return false;
              }}
            >
              <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending} data-testid="pay-upload">
                {t('billing.pay.upload')}
              </Button>
            </Upload>
          )}
        </div>
      )}
    </Modal>
  );
}
