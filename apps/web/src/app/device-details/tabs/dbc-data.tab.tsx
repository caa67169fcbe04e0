import { DbcDataPanel } from '../../../features/dbc/components/dbc-data-panel.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** DBC data (spec §2): built in the dbc feature, which owns DBC files, strategies and decoded signals. */
export default function DbcDataTab({ thing, tenantId }: DeviceTabProps) {
  return <DbcDataPanel thing={thing} tenantId={tenantId} />;
}
