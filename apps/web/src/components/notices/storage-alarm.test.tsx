// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLang } from '../../i18n/setup.ts';
import { StorageAlarm } from './storage-alarm.tsx';

beforeAll(async () => {
  await changeLang('en');
});
afterEach(cleanup);

describe('the storage alarm', () => {
  it('shows while the server says its disk is low, and says uplinks are refused', () => {
    render(<StorageAlarm health={{ disk: 'low' }} />);
    const alarm = screen.getByTestId('storage-alarm');
    expect(alarm.getAttribute('role')).toBe('alert');
    expect(alarm.textContent).toMatch(/refus/i);
    expect(alarm.textContent).toMatch(/DISK_FREE_MIN_MB/);
  });

  it('shows nothing while the disk has room or before the health answer', () => {
    const { container, rerender } = render(<StorageAlarm health={{ disk: 'ok' }} />);
    expect(container.innerHTML).toBe('');
    rerender(<StorageAlarm health={null} />);
    expect(container.innerHTML).toBe('');
  });
});
