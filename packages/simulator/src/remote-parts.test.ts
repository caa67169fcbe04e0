import { describe, expect, it } from 'vitest';
import { checkWireFrame, SimulatedBus } from './can-bus.ts';
import type { OperationContext } from './commands.ts';
import { ConfigStore, checkConfig, FACTORY_CONFIG } from './config-store.ts';
import { FILE_INFO_EMPTY, VirtualSdCard } from './sd-card.ts';

describe('simulated logger parts (device side of remote operations)', () => {
  it('the SD card lists by time window and page, oldest first, and deletes by name', () => {
    const sd = new VirtualSdCard();
    for (let i = 0; i < 25; i++) sd.put(`f${String(i).padStart(2, '0')}.blf`, new Uint8Array(i), 1000 + i);
    const page2 = sd.list({ page_size: 10, current_page: 2, filter: { starttime: 1003, endtime: 1020 } });
    expect(page2.payload).toEqual({
      total: 18,
      files: Array.from({ length: 8 }, (_, k) => ({ name: `f${13 + k}.blf`, size: 13 + k, time: 1013 + k })),
    });
    expect(sd.remove({ filter: { name: 'f00.blf' } })).toEqual({ code: 0, payload: { deleted: 'f00.blf' } });
    expect(sd.remove({ filter: { name: 'f00.blf' } }).code).toBe(FILE_INFO_EMPTY);
  });

  it('the logger checks config ranges itself and a refused change changes nothing', () => {
    expect(checkConfig({ record_time: 8_640_000, local_port: 0, storage_allocation_pct: 100 })).toBeNull();
    expect(checkConfig({ gps_record_period_s: 0 })).toBe('gps_record_period_s must be 1-1800');
    expect(checkConfig({ timeout_ms: 500.5 })).toBe('timeout_ms must be 500-60000');
    expect(checkConfig({ id_filters: new Array(9).fill({}) })).toBe('at most 8 ID filters');
    expect(checkConfig({ secret_mode: true })).toBe('unknown setting secret_mode');
    const store = new ConfigStore();
    expect(store.set({ config: { timer_period_ms: 20, remote_port: 0 } })).toMatchObject({
      code: 400,
      message: 'remote_port must be 1-65535',
    });
    expect(store.config).toEqual(FACTORY_CONFIG);
    expect(store.set({ config: { timer_period_ms: 20 } }).code).toBe(0);
    expect(store.config.timer_period_ms).toBe(20);
  });

  it('the bus refuses bad frames and echoes good ones as transmitted', async () => {
    expect(checkWireFrame({ id: '0x800', data: '' })).toBe('bad id');
    expect(checkWireFrame({ id: '0x800', ext: true, data: '00' })).toBeNull();
    expect(checkWireFrame({ id: 1, data: '0' })).toMatch(/even/);
    expect(checkWireFrame({ id: 1, fd: true, data: '00'.repeat(10) })).toBe('bad length');
    const echoed: number[] = [];
    const bus = new SimulatedBus(async (f) => void echoed.push(...f.map((x) => (x.tx ? x.id : -1))));
    const r = await bus.send({
      frames: [
        { id: 5, data: '01' },
        { id: '7FF', data: '' },
      ],
    });
    expect(r).toEqual({ code: 0, payload: { sent: 2, periodic: false } });
    expect(echoed).toEqual([5, 0x7ff]);
    expect((await bus.send({ frames: new Array(101).fill({ id: 1, data: '' }) })).code).toBe(400);
  });

  it('an upload refused by the server is reported, not retried for ever', async () => {
    const sd = new VirtualSdCard();
    sd.put('a.log', new Uint8Array([1]));
    const ctx = { envelope: {} as never, progress: async () => {} } satisfies OperationContext;
    expect(await sd.upload({ filename: 'missing.log', url: 'http://127.0.0.1:1/x' }, ctx)).toMatchObject({ code: FILE_INFO_EMPTY });
    expect(await sd.upload({ filename: 'a.log', url: 'ftp://nowhere' }, ctx)).toMatchObject({ code: 2 });
  });
});
