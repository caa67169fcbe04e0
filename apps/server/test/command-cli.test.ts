import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ecusFromJson, remoteDevice } from '../src/cli/remote-device.ts';

describe('loggerhead remote-device', () => {
  it('builds simulated ECUs from the JSON description', () => {
    const [ecu] = ecusFromJson([
      {
        name: 'BMS',
        request_id: '7E0',
        response_id: '0x7E8',
        unlock: { format: 'loggerhead-unlock/1', level: 1, steps: [{ op: 'not' }] },
        dtcs: [{ code: 'P0A80-13', status: 9 }],
        dids: { F190: '41 42' },
      },
    ]);
    expect(ecu.opts).toMatchObject({ name: 'BMS', requestId: 0x7e0, responseId: 0x7e8 });
    expect(ecu.dtcs).toEqual([{ code: 0x0a8013, status: 9 }]);
    expect(ecu.handle(Uint8Array.of(0x22, 0xf1, 0x90))).toEqual([Uint8Array.of(0x62, 0xf1, 0x90, 0x41, 0x42)]);
    expect(() => ecusFromJson([{ dtcs: [{ code: 'nope' }] }])).toThrow(/not a fault code/);
  });

  it('needs a device and a key', async () => {
    expect(await remoteDevice(['--broker', 'mqtt://127.0.0.1:1'])).toBe(2);
    expect(await remoteDevice(['--help'])).toBe(0);
  });

  it('refuses a log to replay that cannot be read or holds no frames, before connecting', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-replay-'));
    const empty = path.join(dir, 'empty.log');
    fs.writeFileSync(empty, '');
    const args = ['--broker', 'mqtt://127.0.0.1:1', '--device', 'D', '--key', 'K', '--replay'];
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((m: string) => void errors.push(m));
    try {
      expect(await remoteDevice([...args, path.join(dir, 'missing.log')])).toBe(1);
      expect(errors.pop()).toMatch(/cannot replay .*missing\.log/);
      expect(await remoteDevice([...args, empty])).toBe(1);
      expect(errors.pop()).toMatch(/empty\.log/);
    } finally {
      spy.mockRestore();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
