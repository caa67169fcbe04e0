import { MAX_BATCH_RECALL, type RecallTask } from '@loggerhead/contract/schemas/recall.ts';

/** Spec §5: a file of size 0 can be neither recalled nor deleted. */
export const canRecall = (size: number) => size > 0;

/** Batch recall: at most the package's max_batch_recall_size, never above the spec's 50. */
export function batchLimit(packageMax: number | null | undefined): number {
  if (packageMax === null || packageMax === undefined) return MAX_BATCH_RECALL;
  return Math.max(0, Math.min(MAX_BATCH_RECALL, packageMax));
}

export const RECALL_RUNNING: readonly RecallTask['state'][] = ['sending', 'device', 'fetching'];
export const isRecallRunning = (t: Pick<RecallTask, 'state'>) => RECALL_RUNNING.includes(t.state);

/** Spec §4 recall steps (idle → command sending → device result → file fetching → URL obtained) as a step index. */
export function recallStep(state: RecallTask['state']): number {
  switch (state) {
    case 'sending':
      return 0;
    case 'device':
      return 1;
    case 'fetching':
      return 2;
    case 'done':
      return 3;
    default:
      return -1;
  }
}

/** Name of a recalled file on the server: things id + underscore + file name (spec §7). */
export const storedName = (thingId: string, filename: string) => `${thingId}_${filename}`;
