import { useEffect, useSyncExternalStore } from 'react';
import { type Customization, getStoredCustomization, subscribeCustomization } from '../api/session-storage.ts';

export const DEFAULT_PRIMARY = '#1677ff';
const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The tenant's theme colour (customisation systemTheme), or the default when unset or not a colour. */
export function primaryColour(c: Customization | null): string {
  const v = c?.systemTheme?.trim();
  return v && HEX.test(v) ? v : DEFAULT_PRIMARY;
}

/**
 * The primary colour of the console, following the loaded customisation as it is loaded,
 * saved or cleared. Also published as `--lh-primary` for the few places styled outside antd.
 */
export function useThemeColour(): string {
  const colour = useSyncExternalStore(subscribeCustomization, () => primaryColour(getStoredCustomization()));
  useEffect(() => {
    document.documentElement.style.setProperty('--lh-primary', colour);
  }, [colour]);
  return colour;
}
