import { GpsTrack } from '../../../features/efence/components/gps-track.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** GPS track (spec §2): built in the e-fence feature, which owns positions, tracks and the map. */
export default function GpsTrackTab({ thing, tenantId }: DeviceTabProps) {
  return <GpsTrack tenantId={tenantId} thingId={thing.id} />;
}
