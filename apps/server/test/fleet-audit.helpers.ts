import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { upTopic } from '@loggerhead/can/protocol/topics.ts';
import mqtt, { type MqttClient } from 'mqtt';
import type { RawSql } from '../src/db/client.ts';
import { batch } from './ingest.helpers.ts';
import { poll } from './poll.ts';
import { freePort } from './services.helpers.ts';

/* Faults measured from outside: a broker that can be restarted or killed, and a fleet whose every acknowledged batch is audited. */

const MOSQUITTO = fs.existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect(port, '127.0.0.1', () => {
      c.destroy();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });

/**
 * A Mosquitto of its own on a free port, with persistence in a folder of its own (as
 * docs/operations.md advises), anonymous devices, and the operator settings of
 * docs/device-protocol.md; `restart` stops it gracefully and starts it again on the same port and
 * folder, `kill` kills it (SIGKILL) and starts it again.
 */
export async function startPersistentMosquitto() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-mosq-'));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      `user ${os.userInfo().username}`,
      'persistence true',
      `persistence_location ${dir}/`,
      'max_inflight_messages 1000',
      'max_queued_messages 1000000',
      '',
    ].join('\n'),
  );
  let proc: ChildProcess | null = null;
  const up = async () => {
    proc = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
    await poll(() => listening(port), Boolean, { ms: 10_000, what: `Mosquitto listening on ${port}` });
  };
  const down = async (signal: NodeJS.Signals) => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  };
  await up();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    async restart(pauseMs = 0) {
      await down('SIGTERM');
      await new Promise((r) => setTimeout(r, pauseMs));
      await up();
    },
    async kill(pauseMs = 0) {
      await down('SIGKILL');
      await new Promise((r) => setTimeout(r, pauseMs));
      await up();
    },
    async stop() {
      await down('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface FleetDevice {
  deviceId: string;
  key: string;
  thingsId: string;
}

/**
 * Devices that stream frame batches (QoS 1, a send window of `window` each, 10 frames a batch) and
 * keep, per device, the sequence numbers the broker acknowledged. They reconnect by themselves and
 * re-send what was not acknowledged, as loggers do.
 */
export function streamFleet(url: string, devices: FleetDevice[], opts: { window?: number; t0: number }) {
  const window = opts.window ?? 5;
  const acked = new Map<string, Set<number>>();
  /** When each batch was acknowledged (per device and seq). */
  const ackedAt = new Map<string, number>();
  const sent = new Map<string, number>();
  let stopped = false;
  const pending = new Set<Promise<void>>();
  const clients: MqttClient[] = devices.map((d) => {
    acked.set(d.thingsId, new Set());
    sent.set(d.thingsId, 0);
    const c = mqtt.connect(url, {
      clientId: d.deviceId,
      username: d.deviceId,
      password: d.key,
      clean: false,
      // A logger's first back-off (docs/device-protocol.md).
      reconnectPeriod: 1000,
      connectTimeout: 5000,
    });
    c.on('error', () => {});
    let inFlight = 0;
    const more = () => {
      while (!stopped && inFlight < window) {
        const seq = (sent.get(d.thingsId) ?? 0) + 1;
        sent.set(d.thingsId, seq);
        inFlight++;
        const p = c
          .publishAsync(upTopic(d.deviceId, 'frames'), batch(seq, opts.t0 + seq * 10_000, 10), { qos: 1 })
          .then(
            () => {
              acked.get(d.thingsId)?.add(seq);
              ackedAt.set(`${d.thingsId}/${seq}`, Date.now());
            },
            () => {},
          )
          .finally(() => {
            inFlight--;
            pending.delete(p);
            more();
          });
        pending.add(p);
      }
    };
    c.once('connect', more);
    return c;
  });
  const total = () => [...acked.values()].reduce((n, s) => n + s.size, 0);
  return {
    acked,
    ackedAt: (thingsId: string, seq: number) => ackedAt.get(`${thingsId}/${seq}`) ?? 0,
    /** Batches the broker acknowledged so far, over the fleet. */
    ackedCount: total,
    sentCount: () => [...sent.values()].reduce((n, s) => n + s, 0),
    /** Stops sending; resolves once every batch sent was acknowledged (or `ms` passed). */
    async stop(ms = 30_000) {
      stopped = true;
      const end = Date.now() + ms;
      while (pending.size && Date.now() < end) await Promise.race([...pending, new Promise((r) => setTimeout(r, 100))]);
      await Promise.all(clients.map((c) => c.endAsync(true)));
    },
  };
}

/** Sequence numbers stored per device, with how many rows each has. */
export async function storedBatches(raw: RawSql, thingsIds: string[]): Promise<Map<string, Map<number, number>>> {
  const { rows } = await raw.query<{ things_id: string; seq: number; n: number }>(
    'select things_id, seq::int as seq, count(*)::int as n from frame_chunks where things_id = any($1) group by things_id, seq',
    [thingsIds],
  );
  const out = new Map<string, Map<number, number>>(thingsIds.map((id) => [id, new Map()]));
  for (const r of rows) out.get(r.things_id)?.set(r.seq, r.n);
  return out;
}

/** The audit: acknowledged batches not stored, and batches stored more than once. */
export function audit(acked: Map<string, Set<number>>, stored: Map<string, Map<number, number>>) {
  let ackedCount = 0;
  let lost = 0;
  let doubled = 0;
  let storedCount = 0;
  for (const [thingsId, seqs] of acked) {
    const s = stored.get(thingsId) ?? new Map();
    ackedCount += seqs.size;
    for (const seq of seqs) if (!s.has(seq)) lost++;
    for (const n of s.values()) {
      storedCount++;
      if (n > 1) doubled++;
    }
  }
  return { acked: ackedCount, stored: storedCount, lost, doubled };
}
