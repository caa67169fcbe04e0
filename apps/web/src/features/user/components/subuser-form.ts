import type { DeviceAccessEntry } from '@loggerhead/contract/schemas/accounts.ts';

/** The chosen devices with their level; a newly chosen device starts readable, unknown ones drop out. */
export function withAccess(chosen: readonly string[], previous: readonly DeviceAccessEntry[]): DeviceAccessEntry[] {
  const level = new Map(previous.map((d) => [d.things_id, d.access]));
  return chosen.map((id) => ({ things_id: id, access: level.get(id) ?? 'read' }));
}

export function setAccess(list: readonly DeviceAccessEntry[], id: string, access: 'read' | 'write'): DeviceAccessEntry[] {
  return list.map((d) => (d.things_id === id ? { ...d, access } : d));
}

/** Spec §6: a sub-user's first password is the last 8 digits of its mobile. */
export function initialPasswordOf(mobile: string): string {
  return mobile.replace(/\D/g, '').slice(-8);
}
