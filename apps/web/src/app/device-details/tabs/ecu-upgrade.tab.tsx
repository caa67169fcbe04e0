import { EcuUpgradePanel } from '../../../features/remote/components/ecu-upgrade-panel.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** ECU upgrade (spec §2): flash an ECU behind this device. */
export default function EcuUpgradeTab({ thing, tenantId }: DeviceTabProps) {
  return <EcuUpgradePanel tenantId={tenantId} thingId={thing.id} />;
}
