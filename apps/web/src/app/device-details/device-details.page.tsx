import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Flex, Result, Spin, Tabs, Typography } from 'antd';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { errorText } from '../../api/error-funnel.ts';
import { thingQuery } from '../../features/device/api/device.queries.ts';
import { OnlineBadge } from '../../features/device/components/device-state.tsx';
import { useSession } from '../../session/use-session.ts';
import ChildrenTab from './tabs/children.tab.tsx';
import DbcDataTab from './tabs/dbc-data.tab.tsx';
import DeviceDataTab from './tabs/device-data.tab.tsx';
import DeviceManagementTab from './tabs/device-management.tab.tsx';
import DeviceTestTab from './tabs/device-test.tab.tsx';
import EcuUpgradeTab from './tabs/ecu-upgrade.tab.tsx';
import GpsTrackTab from './tabs/gps-track.tab.tsx';
import ModelTab from './tabs/model.tab.tsx';
import type { DeviceTabProps } from './tabs/tab-props.ts';
import TriggerManagementTab from './tabs/trigger-management.tab.tsx';
import UdsDiagnosisTab from './tabs/uds-diagnosis.tab.tsx';

/** Spec §2 device detail tabs, in order; each lives in its own file under tabs/. */
const TABS: { key: string; label: string; Tab: ComponentType<DeviceTabProps> }[] = [
  { key: 'management', label: 'device.tab.management', Tab: DeviceManagementTab },
  { key: 'data', label: 'device.tab.data', Tab: DeviceDataTab },
  { key: 'model', label: 'device.tab.model', Tab: ModelTab },
  { key: 'dbc', label: 'device.tab.dbc', Tab: DbcDataTab },
  { key: 'trigger', label: 'device.tab.trigger', Tab: TriggerManagementTab },
  { key: 'uds', label: 'device.tab.uds', Tab: UdsDiagnosisTab },
  { key: 'ecu', label: 'device.tab.ecu', Tab: EcuUpgradeTab },
  { key: 'gps', label: 'device.tab.gps', Tab: GpsTrackTab },
  { key: 'children', label: 'device.tab.children', Tab: ChildrenTab },
  { key: 'test', label: 'device.tab.test', Tab: DeviceTestTab },
];

/** /Container/HomePage/DeviceDetails?id=… — one device, its tabs kept in the address (?tab=…&sub=…). */
export default function DeviceDetailsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { tenantId } = useSession();
  const id = params.get('id') ?? '';
  const thing = useQuery(thingQuery(tenantId, id));
  const active = TABS.some((x) => x.key === params.get('tab')) ? (params.get('tab') as string) : 'management';
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/Container/HomePage')}>
      {t('device.details.back')}
    </Button>
  );

  if (!id) return <Result status="warning" title={t('device.details.title')} subTitle={t('device.details.missing')} extra={back} />;
  if (thing.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (thing.isError || !thing.data) {
    return (
      <Result
        status="404"
        title={t('device.details.notFound')}
        subTitle={thing.error ? errorText(thing.error, t, (k) => i18n.exists(k)) : undefined}
        extra={back}
      />
    );
  }
  const d = thing.data;
  return (
    <Card variant="borderless" data-testid="device-details">
      <Flex align="center" gap={16} wrap style={{ marginBottom: 8 }}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          aria-label={t('device.details.back')}
          onClick={() => navigate('/Container/HomePage')}
        />
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="device-title">
          {d.name}
        </Typography.Title>
        <Typography.Text type="secondary" className="lh-mono">
          {d.third_things_id}
        </Typography.Text>
        <OnlineBadge online={d.is_online} connection={d.connection_status} />
      </Flex>
      <Tabs
        activeKey={active}
        destroyOnHidden
        onChange={(k) =>
          setParams(
            (p) => {
              p.set('tab', k);
              p.delete('sub');
              return p;
            },
            { replace: true },
          )
        }
        items={TABS.map(({ key, label, Tab }) => ({ key, label: t(label), children: <Tab thing={d} tenantId={tenantId as string} /> }))}
      />
    </Card>
  );
}
