import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { AlertEvents } from '../../../features/trigger/components/alert-events.tsx';
import { RuleList } from '../../../features/trigger/components/rule-list.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** Trigger management of one device: its rules and the alert events they raised. */
export default function TriggerManagementTab({ thing, tenantId }: DeviceTabProps) {
  const { t } = useTranslation();
  return (
    <Tabs
      size="small"
      items={[
        { key: 'rules', label: t('trigger.tab.rules'), children: <RuleList tenantId={tenantId} thingsId={thing.id} /> },
        { key: 'events', label: t('trigger.tab.events'), children: <AlertEvents tenantId={tenantId} thingsId={thing.id} /> },
      ]}
    />
  );
}
