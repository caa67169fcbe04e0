import { useQueryClient } from '@tanstack/react-query';
import { Flex } from 'antd';
import { deviceKeys } from '../../../features/device/api/device.queries.ts';
import { DeviceInfo } from '../../../features/device/components/device-info.tsx';
import { EventLog } from '../../../features/device/components/event-log.tsx';
import { StatusPanel } from '../../../features/device/components/status-panel.tsx';
import { ConfigEditor } from '../../../features/remote/components/config-editor.tsx';
import { DeviceCommands } from '../../../features/remote/components/device-commands.tsx';
import { FirmwareSection } from '../../../features/remote/components/firmware-section.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** Device management (spec §2): status, the device record and key, commands, configuration, firmware, the event log. */
export default function DeviceManagementTab({ thing, tenantId }: DeviceTabProps) {
  const client = useQueryClient();
  return (
    <Flex vertical gap={16}>
      <StatusPanel thing={thing} tenantId={tenantId} />
      <DeviceInfo thing={thing} tenantId={tenantId} />
      <DeviceCommands thingId={thing.id} tenantId={tenantId} />
      <ConfigEditor thingId={thing.id} tenantId={tenantId} />
      <FirmwareSection
        thing={thing}
        tenantId={tenantId}
        // The firmware version and state the device reports change with an upgrade.
        onUpgradeChange={() => client.invalidateQueries({ queryKey: deviceKeys.one(tenantId, thing.id) })}
      />
      <EventLog thing={thing} tenantId={tenantId} />
    </Flex>
  );
}
