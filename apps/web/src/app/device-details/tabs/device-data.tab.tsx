import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { HistoryFrames } from '../../../features/device/components/history-frames.tsx';
import { RealtimeTrace } from '../../../features/device/components/realtime-trace.tsx';
import DeviceStorageTab from './device-storage.tab.tsx';
import type { DeviceTabProps } from './tab-props.ts';

const SUB_TABS = ['realtime', 'history', 'storage'] as const;
type SubTab = (typeof SUB_TABS)[number];

/** Device data (spec §2): real-time trace, history, device storage. The chosen sub-tab is kept in the address. */
export default function DeviceDataTab({ thing, tenantId }: DeviceTabProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const sub = (SUB_TABS as readonly string[]).includes(params.get('sub') ?? '') ? (params.get('sub') as SubTab) : 'realtime';
  return (
    <Tabs
      activeKey={sub}
      onChange={(k) =>
        setParams(
          (p) => {
            p.set('sub', k);
            return p;
          },
          { replace: true },
        )
      }
      // Only the open sub-tab is mounted: the live socket closes when the user looks elsewhere.
      destroyOnHidden
      items={[
        { key: 'realtime', label: t('device.data.realtime'), children: <RealtimeTrace thing={thing} /> },
        { key: 'history', label: t('device.data.history'), children: <HistoryFrames thing={thing} tenantId={tenantId} /> },
        { key: 'storage', label: t('device.data.storage'), children: <DeviceStorageTab thing={thing} tenantId={tenantId} /> },
      ]}
    />
  );
}
