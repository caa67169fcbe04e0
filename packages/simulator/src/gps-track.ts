import type { GpsFix } from '@loggerhead/can/protocol/messages.ts';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import type { LoggerDevice } from './logger-device.ts';

/** Fixes per `up/gps` message in a fast replay (the protocol allows up to 10 000). */
const FAST_BATCH = 1000;

export interface GpsTrackFile {
  /** Sorted by time. */
  fixes: GpsFix[];
  /** Set when the file cannot be used at all. */
  error?: string;
}

/**
 * Reads a GPS track CSV: one fix per line, `time,lat,lon[,speed]`. `time` is an ISO 8601 date-time
 * with a zone (`2026-01-05T08:00:00Z`) or seconds since the Unix epoch (fractions allowed); `speed`
 * is km/h. A header line (`time,lat,lon,speed`), blank lines and `#` comments are skipped. Fixes
 * are sorted by time.
 */
export function readGpsCsv(text: string): GpsTrackFile {
  const fixes: GpsFix[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    const cells = line.split(',').map((s) => s.trim());
    if (fixes.length === 0 && /^[a-z_ ]+$/i.test(cells[0]) && /lat/i.test(cells[1] ?? '')) continue;
    const where = `line ${i + 1}`;
    if (cells.length < 3 || cells.length > 4) return { fixes: [], error: `${where}: expected time,lat,lon[,speed]` };
    const ts = parseTime(cells[0]);
    if (ts === null) return { fixes: [], error: `${where}: time "${cells[0]}" is neither ISO 8601 nor epoch seconds` };
    const lat = Number(cells[1]);
    const lon = Number(cells[2]);
    if (cells[1] === '' || !Number.isFinite(lat) || lat < -90 || lat > 90)
      return { fixes: [], error: `${where}: latitude must be -90..90` };
    if (cells[2] === '' || !Number.isFinite(lon) || lon < -180 || lon > 180)
      return { fixes: [], error: `${where}: longitude must be -180..180` };
    const fix: GpsFix = { ts, lat, lon };
    if (cells[3] !== undefined && cells[3] !== '') {
      const speed = Number(cells[3]);
      if (!Number.isFinite(speed) || speed < 0) return { fixes: [], error: `${where}: speed must be a number ≥ 0 (km/h)` };
      fix.speed = speed;
    }
    fixes.push(fix);
  }
  if (!fixes.length) return { fixes, error: 'no fixes' };
  fixes.sort((a, b) => a.ts - b.ts);
  return { fixes };
}

function parseTime(s: string): number | null {
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  // A date-time without a zone would depend on the machine's time zone: refused.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

export interface GpsReplayOptions {
  /** Send each fix at its own time (default: in messages of up to 1000 fixes as fast as acknowledged). */
  realtime?: boolean;
  loop?: boolean;
  /** Milliseconds added to every fix time (see `timeShift`); 0 keeps the file's times. */
  shiftMs?: number;
  /** Track time at which pacing starts (default the first fix), so a track can keep its place next to a log. */
  originMs?: number;
  signal?: AbortSignal;
}

/**
 * How far to move times so that a paced or looping replay starts at now and a one-off fast replay
 * ends at now (a recorded trip uploaded afterwards: nothing from the future) — the same rule as the
 * frame log replay. `first`/`last` in ms.
 */
export function timeShift(first: number, last: number, o: { realtime?: boolean; loop?: boolean; keepTime?: boolean }): number {
  if (o.keepTime) return 0;
  return Date.now() - (o.realtime || o.loop ? first : last);
}

/**
 * Replays fixes through a connected device on `up/gps` with QoS 1; resolves with the number of
 * fixes the cloud acknowledged (stored) once everything sent is acknowledged.
 */
export async function replayGps(device: LoggerDevice, fixes: readonly GpsFix[], o: GpsReplayOptions = {}): Promise<number> {
  const c = device.client;
  if (!c) throw new Error('not connected');
  if (!fixes.length) return 0;
  const sorted = [...fixes].sort((a, b) => a.ts - b.ts);
  const topic = upTopic(device.opts.deviceId, 'gps');
  const origin = o.originMs ?? sorted[0].ts;
  // A loop restarts one second after the last fix, like a log's loop.
  const span = sorted[sorted.length - 1].ts - origin + 1000;
  const started = performance.now();
  let shift = o.shiftMs ?? 0;
  let acked = 0;
  const send = async (part: GpsFix[]) => {
    const body = part.map((f) => ({ ...f, ts: Math.round(f.ts + shift) }));
    await c.publishAsync(topic, JSON.stringify(body.length === 1 ? body[0] : body), { qos: 1 });
    acked += part.length;
  };
  for (let round = 0; ; round++) {
    if (o.realtime) {
      for (const f of sorted) {
        if (o.signal?.aborted) return acked;
        const wait = f.ts - origin + round * span - (performance.now() - started);
        if (wait > 0) await sleep(wait, o.signal);
        if (o.signal?.aborted) return acked;
        await send([f]);
      }
    } else {
      for (let i = 0; i < sorted.length; i += FAST_BATCH) {
        if (o.signal?.aborted) return acked;
        await send(sorted.slice(i, i + FAST_BATCH));
      }
    }
    if (!o.loop) return acked;
    shift += span;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
