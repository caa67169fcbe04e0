import { FIRMWARE_VERSION_RE, type UpgradeState } from '@loggerhead/contract/schemas/firmware.ts';

/** Spec §5: version xx.xx.xx, one or two digits each. */
export const isFirmwareVersion = (v: string) => FIRMWARE_VERSION_RE.test(v.trim());

export const UPGRADE_COLOURS: Record<UpgradeState, string> = {
  scheduled: 'purple',
  idle: 'default',
  busy: 'processing',
  invalid: 'warning',
  'flash success': 'success',
  'flash failed': 'error',
  cancelled: 'default',
};

/** i18n key suffix of an upgrade state ("flash success" → flashSuccess). */
export const upgradeStateKey = (s: UpgradeState) => s.replace(/ (\w)/g, (_m, c: string) => c.toUpperCase());

/** A scheduled upgrade must lie in the future. */
export const validSchedule = (at: number | null, now: number) => at === null || at > now;
