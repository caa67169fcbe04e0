import { dbcText } from '@loggerhead/can';

export { dbcText };

import type { DbcMessageInfo } from '@loggerhead/contract';

/** `Message.Signal` names of a summary, for strategy checks. */
export function signalNames(summary: DbcMessageInfo[]): Set<string> {
  const out = new Set<string>();
  for (const m of summary) for (const s of m.signals) out.add(`${m.name}.${s.name}`);
  return out;
}
