import { useQuery } from '@tanstack/react-query';
import { Card, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { can } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { runtimeQuery } from '../api/testmgmt.queries.ts';
import { RoutinesTab } from '../components/routines-tab.tsx';
import { RunsTab } from '../components/runs-tab.tsx';
import { RuntimeNotice } from '../components/runtime-notice.tsx';
import { ScriptsTab } from '../components/scripts-tab.tsx';

const TABS = ['scripts', 'routines', 'runs'] as const;
type Tab = (typeof TABS)[number];

/**
 * Test management (spec §1-§5 TestManager): analysis scripts in Groovy, routines of steps, runs on
 * devices with their live states, and the reports. The tab is kept in the address (`?tab=`).
 */
export default function TestManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const [params, setParams] = useSearchParams();
  const runtime = useQuery(runtimeQuery());
  const visible = TABS.filter((k) =>
    k === 'scripts' ? can('test-mgmt:script:query') : k === 'routines' ? can('test-mgmt:routine:query') : can('test-mgmt:run:query'),
  );
  const asked = params.get('tab') as Tab | null;
  const tab: Tab | undefined = asked && visible.includes(asked) ? asked : visible[0];
  const available = runtime.data?.state === 'available';

  return (
    <Card
      variant="borderless"
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('test.manager.title')}
        </Typography.Title>
      }
      data-testid="test-manager"
    >
      <RuntimeNotice runtime={runtime.data} />
      {tenantId && (
        <Tabs
          activeKey={tab}
          onChange={(k) => setParams({ tab: k }, { replace: true })}
          destroyOnHidden
          items={visible.map((k) => ({
            key: k,
            label: <span data-testid={`test-tab-${k}`}>{t(`test.tab.${k}`)}</span>,
            children:
              k === 'scripts' ? (
                <ScriptsTab tenantId={tenantId} />
              ) : k === 'routines' ? (
                <RoutinesTab tenantId={tenantId} runtimeAvailable={available} onStarted={() => setParams({ tab: 'runs' })} />
              ) : (
                <RunsTab tenantId={tenantId} runtimeAvailable={available} />
              ),
          }))}
        />
      )}
    </Card>
  );
}
