import { DeviceModelView } from '../../../features/device-type/components/device-model-view.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** The device's data as its info model says: built in the device-type feature, which owns info models. */
export default function ModelTab({ thing, tenantId }: DeviceTabProps) {
  return <DeviceModelView tenantId={tenantId} thingsId={thing.id} modelId={thing.info_model_id} />;
}
