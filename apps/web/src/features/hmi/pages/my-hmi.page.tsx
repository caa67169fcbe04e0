import { DesktopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { useSession } from '../../../session/use-session.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';

/** The HMI screens given to the signed-in user (every published one for a manager), each opened full-screen. */
export default function MyHmiPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const navigate = useNavigate();
  const mine = useQuery({
    queryKey: hmiKeys.mine(tenantId),
    queryFn: ({ signal }) => hmiApi.mine(tenantId as string, signal),
    enabled: Boolean(tenantId),
  });
  return (
    <Card variant="borderless">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('app.menu.myHmi')}
      </Typography.Title>
      <List
        loading={mine.isLoading}
        dataSource={mine.data ?? []}
        locale={{ emptyText: <Empty description={t('hmi.mine.empty')} /> }}
        grid={{ gutter: 16, xs: 1, sm: 2, md: 3, lg: 4 }}
        renderItem={(s) => (
          <List.Item>
            <Card
              hoverable
              data-testid={`hmi-mine-${s.name}`}
              onClick={() => navigate(`/HmiView?id=${s.id}`)}
              actions={[
                <Button key="open" type="link" icon={<DesktopOutlined />}>
                  {t('hmi.action.view')}
                </Button>,
              ]}
            >
              <Card.Meta
                title={s.name}
                description={
                  <>
                    <div>{s.description}</div>
                    <Typography.Text type="secondary">{formatDateTime(s.published_at)}</Typography.Text>
                  </>
                }
              />
            </Card>
          </List.Item>
        )}
      />
    </Card>
  );
}
