import type { Label } from '@loggerhead/contract/schemas/org.ts';
import type { ThingLabel } from '@loggerhead/contract/schemas/things.ts';
import { Space, Tag, Typography } from 'antd';

/** A device's labels as tags, `label: value`, named from the tenant's registry. */
export function DeviceLabelTags({ labels, registry }: { labels: readonly ThingLabel[]; registry: readonly Label[] | undefined }) {
  if (!labels.length) return <Typography.Text type="secondary">--</Typography.Text>;
  const names = new Map((registry ?? []).map((l) => [l.id, l.label]));
  return (
    <Space size={[0, 4]} wrap data-testid="device-labels">
      {labels.map((l) => (
        <Tag key={l.tenantLabelId} color="geekblue" title={l.description ?? undefined}>
          {names.get(l.tenantLabelId) ?? '?'}
          {l.labelValue ? `: ${l.labelValue}` : ''}
        </Tag>
      ))}
    </Space>
  );
}
