import { describe, expect, it } from 'vitest';
import { assessTps } from './tps.estimator.ts';

// Expected figures worked out by hand from the formula in docs/tps.md.
describe('assessTps', () => {
  it('1000 devices, one 100-byte message each every 10 s', () => {
    // r = 100 msg/s, 1 unit; recommend: 1000 × 1.2, 100 × 1.5
    expect(assessTps({ things_num: 1000, msg_interval: 10, msg_size: 100 })).toEqual({
      minimum: { up_down_stream_connections: 1000, push_tps: 100, alert_tps: 100 },
      recommend: { up_down_stream_connections: 1200, push_tps: 150, alert_tps: 150 },
    });
  });

  it('rounds every fraction up', () => {
    // r = 7/3 = 2.33 msg/s; 5000 B = 2 units → push 4.67 → 5; alert 2.33 → 3
    // recommend: 8.4 → 9 connections; push 7.0 → 7; alert 3.5 → 4
    expect(assessTps({ things_num: 7, msg_interval: 3, msg_size: 5000 })).toEqual({
      minimum: { up_down_stream_connections: 7, push_tps: 5, alert_tps: 3 },
      recommend: { up_down_stream_connections: 9, push_tps: 7, alert_tps: 4 },
    });
  });

  it('counts a message once per started 4 KiB', () => {
    expect(assessTps({ things_num: 10, msg_interval: 1, msg_size: 4096 }).minimum.push_tps).toBe(10);
    expect(assessTps({ things_num: 10, msg_interval: 1, msg_size: 4097 })).toEqual({
      minimum: { up_down_stream_connections: 10, push_tps: 20, alert_tps: 10 },
      recommend: { up_down_stream_connections: 12, push_tps: 30, alert_tps: 15 },
    });
    expect(assessTps({ things_num: 10, msg_interval: 1, msg_size: 0 }).minimum.push_tps).toBe(10);
    // the alert rules look at each message once, whatever its size
    expect(assessTps({ things_num: 10, msg_interval: 1, msg_size: 40960 }).minimum).toEqual({
      up_down_stream_connections: 10,
      push_tps: 100,
      alert_tps: 10,
    });
  });

  it('handles the bounds of the form: no devices, a million devices once a week', () => {
    expect(assessTps({ things_num: 0, msg_interval: 1, msg_size: 1_000_000 })).toEqual({
      minimum: { up_down_stream_connections: 0, push_tps: 0, alert_tps: 0 },
      recommend: { up_down_stream_connections: 0, push_tps: 0, alert_tps: 0 },
    });
    // r = 1e6 / 604800 = 1.65 msg/s → 2; recommend 2.48 → 3
    expect(assessTps({ things_num: 1_000_000, msg_interval: 604_800, msg_size: 64 })).toEqual({
      minimum: { up_down_stream_connections: 1_000_000, push_tps: 2, alert_tps: 2 },
      recommend: { up_down_stream_connections: 1_200_000, push_tps: 3, alert_tps: 3 },
    });
  });

  it('does not round a whole result up (5 × 6 / 5 is 6, not 7)', () => {
    expect(assessTps({ things_num: 5, msg_interval: 5, msg_size: 1 }).recommend.up_down_stream_connections).toBe(6);
    expect(assessTps({ things_num: 20, msg_interval: 3, msg_size: 1 }).recommend.push_tps).toBe(10);
  });
});
