import { ArrowLeftOutlined } from '@ant-design/icons';
import type { WorkOrderDetail } from '@loggerhead/contract/schemas/workorder.ts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../../session/use-session.ts';
import type { Side } from '../api/workorder.api.ts';
import { workOrderQuery } from '../api/workorder.queries.ts';
import { OrderView } from './order-view.tsx';
import { ReplyBox } from './reply-box.tsx';

/** Loads the order named by `?id=` for the viewer's side and frames it with a title and actions. */
export function OrderPageFrame({ title, side, actions }: { title: string; side: Side; actions: (order: WorkOrderDetail) => ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { tenantId } = useSession();
  const id = params.get('id') ?? '';
  const order = useQuery(workOrderQuery(side, tenantId, id));

  let body: ReactNode;
  if (!id) body = <Result status="warning" title={t('workorder.detail.missing')} />;
  else if (order.isError) body = <Result status="404" title={t('workorder.detail.notFound')} />;
  else if (!order.data) body = <Skeleton active />;
  else
    body = (
      <>
        <div className="lh-workorder__actions">{actions(order.data)}</div>
        <OrderView order={order.data} side={side} />
        {tenantId !== null && <ReplyBox order={order.data} side={side} tenantId={tenantId} />}
      </>
    );

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('workorder.detail.back')}
            onClick={() => navigate('/Container/WorkOrderList')}
          />
          {title}
        </Typography.Title>
      }
    >
      {body}
    </Card>
  );
}
