import { UdsPanel } from '../../../features/remote/components/uds-panel.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** UDS diagnosis (spec §2): diagnostic services relayed through this device. */
export default function UdsDiagnosisTab({ thing, tenantId }: DeviceTabProps) {
  return <UdsPanel tenantId={tenantId} thingId={thing.id} />;
}
