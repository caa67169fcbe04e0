import { Flex } from 'antd';
import { useState } from 'react';
import { RecallDialog } from '../../../features/remote/components/recall-dialog.tsx';
import { RecalledFiles } from '../../../features/remote/components/recalled-files.tsx';
import { StorageFiles } from '../../../features/remote/components/storage-files.tsx';
import type { DeviceTabProps } from './tab-props.ts';

/** Device storage data (spec §4): the SD-card files with recall/delete, the recall progress and the recalled files. */
export default function DeviceStorageTab({ thing, tenantId }: DeviceTabProps) {
  const [taskId, setTaskId] = useState<string | null>(null);
  return (
    <Flex vertical gap={16}>
      <StorageFiles tenantId={tenantId} thingId={thing.id} onRecall={setTaskId} />
      <RecalledFiles tenantId={tenantId} thingId={thing.id} />
      <RecallDialog tenantId={tenantId} thingId={thing.id} taskId={taskId} onClose={() => setTaskId(null)} />
    </Flex>
  );
}
