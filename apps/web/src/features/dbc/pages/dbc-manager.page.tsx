import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSession } from '../../../session/use-session.ts';
import { DbcFileList } from '../components/dbc-file-list.tsx';
import { StrategyList } from '../components/strategy-list.tsx';

/** DBC management (spec §1, §2): DBC files and signal strategies; the open tab is kept in the address. */
export default function DbcManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'strategies' ? 'strategies' : 'files';
  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('dbc.manager.title')}
        </Typography.Title>
      }
    >
      {tenantId && (
        <Tabs
          activeKey={tab}
          onChange={(k) => setParams({ tab: k }, { replace: true })}
          items={[
            { key: 'files', label: t('dbc.manager.files'), children: <DbcFileList tenantId={tenantId} /> },
            { key: 'strategies', label: t('dbc.manager.strategies'), children: <StrategyList tenantId={tenantId} /> },
          ]}
        />
      )}
    </Card>
  );
}
