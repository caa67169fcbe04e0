import { Flex } from 'antd';
import { DeviceInfo } from '../../../features/device/components/device-info.tsx';
import { EventLog } from '../../../features/device/components/event-log.tsx';
import { StatusPanel } from '../../../features/device/components/status-panel.tsx';
import { ConfigEditor } from '../../../features/remote/components/config-editor.tsx';
import { DeviceCommands } from '../../../features/remote/components/device-commands.tsx';
import { FirmwareSection } from '../../../features/remote/components/firmware-section.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** Device management (spec §2): status, the device record and key, the event log. Commands, upgrade and config come later. */
export default function DeviceManagementTab({ thing, tenantId }: DeviceTabProps) {
  return (
    <Flex vertical gap={16}>
      <StatusPanel thing={thing} tenantId={tenantId} />
      <DeviceInfo thing={thing} tenantId={tenantId} />
      <DeviceCommands thingId={thing.id} tenantId={tenantId} />
      <ConfigEditor thingId={thing.id} tenantId={tenantId} />
      <FirmwareSection thing={thing} tenantId={tenantId} />
      <EventLog thing={thing} tenantId={tenantId} />
    </Flex>
  );
}
