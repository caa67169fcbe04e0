import type { Vehicle } from '@loggerhead/contract/schemas/things.ts';
import { Space, Tag, Tooltip } from 'antd';
import { EMPTY } from '../../../lib/format.ts';

/** A vehicle's channels as "name → device CANn" tags. */
export function VehicleChannelTags({ channels }: { channels: Vehicle['channels'] }) {
  if (!channels.length) return <>{EMPTY}</>;
  return (
    <Space size={4} wrap>
      {channels.map((c) => (
        <Tooltip key={`${c.things_id}-${c.channel}`} title={c.third_things_id ?? c.things_id}>
          <Tag>
            {c.name} → CAN{c.channel}
          </Tag>
        </Tooltip>
      ))}
    </Space>
  );
}
