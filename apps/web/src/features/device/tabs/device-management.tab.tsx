import { Flex } from 'antd';
import { ConfigEditor } from '../../remote/components/config-editor.tsx';
import { DeviceCommands } from '../../remote/components/device-commands.tsx';
import { FirmwareSection } from '../../remote/components/firmware-section.tsx';
import { DeviceInfo } from '../components/device-info.tsx';
import { EventLog } from '../components/event-log.tsx';
import { StatusPanel } from '../components/status-panel.tsx';
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
