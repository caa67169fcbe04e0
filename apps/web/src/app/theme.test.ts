import { describe, expect, it } from 'vitest';
import type { Customization } from '../api/session-storage.ts';
import { DEFAULT_PRIMARY, primaryColour } from './theme.ts';

describe('theme colour from the tenant customisation', () => {
  it('takes a hex colour and falls back to the default for anything else', () => {
    expect(primaryColour({ systemTheme: '#722ed1' })).toBe('#722ed1');
    expect(primaryColour({ systemTheme: ' #0A0 ' })).toBe('#0A0');
    const bad: (Customization | null)[] = [
      null,
      {},
      { systemTheme: '' },
      { systemTheme: 'red' },
      { systemTheme: '#12345' },
      { systemTheme: 'url(x)' },
    ];
    for (const c of bad) {
      expect(primaryColour(c)).toBe(DEFAULT_PRIMARY);
    }
  });
});
