import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { CanFrame } from '@loggerhead/can';
import { LoggerDevice, readGpsCsv, replay, replayGps, runFleet, timeShift } from '@loggerhead/simulator';
import { describeSkipped, readLogFile } from '../lib/log-file.ts';

const HELP = `Usage:
  loggerhead simulate --broker URL --device ID --key KEY (--log FILE | --gps FILE | both) [--fast | --realtime [--batch-ms MS]] [--loop] [--keep-time] [--mqtt5]
  loggerhead simulate --broker URL --devices N --rate R [--duration S] [--max] [--connect-rate C] [--idle] (--device ID --key KEY | --fleet FILE) [--mqtt5]

Connects exactly like a logger (device ID as username, things_key as password) and sends the frames
of a candump -L, Vector ASC or BLF log as QoS 1 batches. Without --loop it exits 0 once every batch
is acknowledged (stored). --fast (default) sends as fast as acknowledgements allow; --realtime keeps
the log's pace, sending every --batch-ms (default 200) the frames that have come due, as a logger
does. Like a logger it reconnects after a lost connection (back-off from 1 s up to 30 s) and re-sends
every batch not yet acknowledged; the cloud stores each batch once. Timestamps move so that a fast replay ends at now and a paced or looping one starts at
now, unless --keep-time.
--gps FILE replays a GPS track on the device's GPS uplink (up/gps): a CSV with one fix per line,
"time,lat,lon[,speed]" (an optional header line; time as ISO 8601 with a zone, e.g.
2026-01-05T08:00:00Z, or seconds since the epoch; speed in km/h), e.g.
  time,lat,lon,speed
  2026-01-05T08:00:00Z,31.2304,121.4737,42.1
Its times move by the same rule (with --log, by the same amount as the log's, so both stay aligned);
--fast sends up to 1000 fixes per message, --realtime each fix at its time.
Fleet mode runs N synthetic loggers at R frames/s each for S seconds (default 10); with --device/--key
all connections share one device (client ids ID-0, ID-1, …), with --fleet they read "id,key" lines.
--max sends as fast as acknowledgements allow (R/10 frames per batch) to measure the ceiling.
Connections open at --connect-rate a second (default 500; 0 opens them all at once, like a fleet
reconnecting after a server restart). Devices that cannot connect within 30 s are reported (with the
reason) and the rest run; the exit status is then 1. The last lines give the PUBACK round trip of the
frame batches (p50, p99) and how long the connects took. --idle connects the fleet and holds the
connections for --duration seconds without sending (a line "N devices connected" is printed once
every connect has settled).`;

export async function simulate(args: string[]): Promise<number> {
  let v: Record<string, string | boolean | undefined>;
  try {
    v = parseArgs({
      args,
      options: {
        broker: { type: 'string' },
        device: { type: 'string' },
        key: { type: 'string' },
        log: { type: 'string' },
        gps: { type: 'string' },
        fast: { type: 'boolean' },
        realtime: { type: 'boolean' },
        'batch-ms': { type: 'string' },
        loop: { type: 'boolean' },
        'keep-time': { type: 'boolean' },
        mqtt5: { type: 'boolean' },
        devices: { type: 'string' },
        rate: { type: 'string' },
        duration: { type: 'string' },
        fleet: { type: 'string' },
        max: { type: 'boolean' },
        'connect-rate': { type: 'string' },
        idle: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    console.error(`loggerhead simulate: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (v.help) {
    console.log(HELP);
    return 0;
  }
  const broker = (v.broker as string | undefined) ?? 'mqtt://localhost:1883';
  const protocolVersion = v.mqtt5 ? 5 : 4;
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());

  if (v.devices) {
    const count = Number(v.devices);
    const rate = Number(v.rate ?? 100);
    const duration = Number(v.duration ?? 10);
    if (!(count > 0) || !(rate > 0) || !(duration > 0)) return usage('--devices, --rate and --duration must be positive numbers');
    const connectRate = Number(v['connect-rate'] ?? 500);
    if (!(connectRate >= 0)) return usage('--connect-rate must be a number of connections a second (0: all at once)');
    let creds: { deviceId: string; key: string }[];
    if (v.fleet) {
      creds = fs
        .readFileSync(v.fleet as string, 'utf8')
        .split(/\r?\n/)
        .filter((l) => l.trim() && !l.startsWith('#'))
        .map((l) => {
          const [deviceId, key] = l.split(',').map((s) => s.trim());
          return { deviceId, key };
        });
    } else if (v.device && v.key) creds = [{ deviceId: v.device as string, key: v.key as string }];
    else return usage('fleet mode needs --device and --key, or --fleet FILE');
    const r = await runFleet({
      broker,
      devices: creds,
      count,
      rate,
      duration,
      protocolVersion,
      signal: ac.signal,
      flat: !!v.max,
      window: v.max ? 4 : 8,
      connectRate,
      idle: !!v.idle,
      onConnected: (n, failed, s) => console.log(`${n} devices connected, ${failed} failed, in ${s.toFixed(1)} s`),
    });
    const ms = (x: number | null) => (x === null ? '-' : x.toFixed(1));
    console.log(
      `${r.devices - r.failed} devices: ${r.frames} frames in ${r.batches} batches acknowledged in ${r.seconds.toFixed(1)} s (${Math.round(r.frames / r.seconds)} frames/s)${r.reconnects ? `, ${r.reconnects} reconnects` : ''}`,
    );
    console.log(`connected in ${r.connectSeconds.toFixed(1)} s; PUBACK round trip p50 ${ms(r.ackP50Ms)} ms, p99 ${ms(r.ackP99Ms)} ms`);
    if (r.failed) {
      const why = Object.entries(r.failures).map(([m, n]) => `${m} (${n})`);
      console.error(`loggerhead simulate: ${r.failed} of ${r.devices} devices could not connect to ${broker}: ${why.join('; ')}`);
      return 1;
    }
    return 0;
  }

  if (!v.device || !v.key || (!v.log && !v.gps)) return usage('--device, --key and --log or --gps are required');
  if (v.fast && v.realtime) return usage('choose --fast or --realtime');
  const batchMs = Number(v['batch-ms'] ?? 200);
  if (!(batchMs >= 1 && batchMs <= 60_000)) return usage('--batch-ms must be a number of milliseconds, 1-60000');
  let frames: CanFrame[] = [];
  let format = '';
  let skipped = 0;
  if (v.log) {
    // Read as a stream (gzip inflated on the way; MF4 by random access), never loaded whole.
    let log: Awaited<ReturnType<typeof readLogFile>>;
    try {
      log = await readLogFile(v.log as string);
    } catch (e) {
      console.error(`loggerhead simulate: cannot read ${v.log}: ${(e as Error).message}`);
      return 1;
    }
    // Nothing readable: one line and a non-zero exit; lines skipped in a readable file: one line, go on.
    if (log.error) {
      console.error(`loggerhead simulate: ${v.log}: ${log.error}`);
      return 1;
    }
    frames = [...log.frames].sort((a, b) => a.ts - b.ts);
    format = log.format ?? '';
    skipped = log.skipped;
    if (skipped) console.error(`loggerhead simulate: ${v.log}: ${describeSkipped(log)}`);
  }
  let fixes: ReturnType<typeof readGpsCsv>['fixes'] = [];
  if (v.gps) {
    let text: string;
    try {
      text = fs.readFileSync(v.gps as string, 'utf8');
    } catch (e) {
      return usage(`cannot read ${v.gps}: ${(e as Error).message}`);
    }
    const track = readGpsCsv(text);
    if (track.error) return usage(`${v.gps}: ${track.error}`);
    fixes = track.fixes;
  }
  const mode = { realtime: !!v.realtime, loop: !!v.loop, keepTime: !!v['keep-time'] };
  // One time line for the log (µs) and the track (ms): both move by the same amount.
  const firsts = [...(frames.length ? [frames[0].ts / 1000] : []), ...(fixes.length ? [fixes[0].ts] : [])];
  const lasts = [...(frames.length ? [frames[frames.length - 1].ts / 1000] : []), ...(fixes.length ? [fixes[fixes.length - 1].ts] : [])];
  const origin = Math.min(...firsts);
  const shiftMs = timeShift(origin, Math.max(...lasts), mode);
  const device = new LoggerDevice({ broker, deviceId: v.device as string, key: v.key as string, protocolVersion });
  try {
    await device.connect();
  } catch (e) {
    console.error(`loggerhead simulate: cannot connect to ${broker}: ${(e as Error).message}`);
    return 1;
  }
  const started = performance.now();
  const runLog = async () => {
    if (!frames.length) return;
    // A paced log that starts after the track waits for its place.
    if (mode.realtime && frames[0].ts / 1000 > origin) await pause(frames[0].ts / 1000 - origin, ac.signal);
    const shifted = shiftMs ? frames.map((f) => ({ ...f, ts: Math.round(f.ts + shiftMs * 1000) })) : frames;
    await replay(device, shifted, { realtime: mode.realtime, batchMs, loop: mode.loop, keepTime: true, signal: ac.signal });
  };
  // The only error that ends a replay is a refusal after a reconnect (the key was changed meanwhile).
  const stopped = (e: unknown) => {
    console.error(`loggerhead simulate: ${broker}: ${(e as Error).message}`);
    return 0;
  };
  const [, gpsAcked] = await Promise.all([
    runLog().catch(stopped),
    fixes.length
      ? replayGps(device, fixes, { realtime: mode.realtime, loop: mode.loop, shiftMs, originMs: origin, signal: ac.signal }).catch(stopped)
      : 0,
  ]);
  const s = (performance.now() - started) / 1000;
  await device.close().catch(() => {});
  const parts: string[] = [];
  if (v.log) parts.push(`${device.acked.frames} frames in ${device.acked.batches} batches (${format}, ${skipped} skipped)`);
  if (v.gps) parts.push(`${gpsAcked} GPS fixes`);
  console.log(`${parts.join(' and ')} acknowledged in ${s.toFixed(2)} s`);
  return device.acked.batches === device.sent.batches && (mode.loop || gpsAcked >= fixes.length) ? 0 : 1;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });
}

function usage(msg: string): number {
  console.error(`loggerhead simulate: ${msg}\n\n${HELP}`);
  return 2;
}
