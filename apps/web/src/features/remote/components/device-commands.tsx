import { Flex } from 'antd';
import { CommandList } from './command-list.tsx';
import { CommandSender } from './command-sender.tsx';

/** Device management → commands: the sender above, the device's command list below. */
export function DeviceCommands({ thingId, tenantId }: { thingId: string; tenantId: string }) {
  return (
    <Flex vertical gap={16}>
      <CommandSender thingId={thingId} tenantId={tenantId} />
      <CommandList thingId={thingId} tenantId={tenantId} />
    </Flex>
  );
}
