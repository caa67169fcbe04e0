import { randomInt } from 'node:crypto';
import { detectLogFormat, readLog } from '@loggerhead/can/logs/index.ts';
import { checkBatch, encodeBatch, planBatches } from '@loggerhead/can/protocol/batch.ts';
import type { RawSql } from '../../db/client.ts';
import type { ChunkWriter } from '../../ingest/chunk-writer.ts';
import type { DeviceDirectory } from '../../ingest/device-directory.ts';
import type { Auth } from '../../lib/auth.ts';
import { badRequest } from '../../lib/errors.ts';
import { requireDevice } from '../things/things.access.ts';

/** A log without absolute times before this (µs) is taken as relative to its start. */
const ABSOLUTE_AFTER_US = Date.UTC(2000, 0, 1) * 1000;

/**
 * A log file (candump -L, Vector ASC, BLF) into a device's history: the frames go through the same
 * batch encoding and chunk writer as MQTT uplinks, so history, live and export treat them alike.
 */
export function uploadsService(raw: RawSql, writer: ChunkWriter, devices: DeviceDirectory) {
  return {
    async upload(auth: Auth, thingsId: string, file: { name: string; bytes: Uint8Array }, startTimeMs?: number) {
      await requireDevice(raw, auth, thingsId, 'write');
      const format = detectLogFormat(file.bytes) ?? detectLogFormat(file.name);
      const res = readLog(file.bytes, format);
      if (res.error || !res.format) throw badRequest('data.bad-format', res.error);
      const frames = res.frames;
      if (!frames.length) return { frames: 0, chunks: 0, bytes: 0, begin_time: null, end_time: null };
      // Relative times (a log without a start date) are placed at the given start, or now.
      if (frames[0].ts < ABSOLUTE_AFTER_US) {
        const base = (startTimeMs ?? Date.now()) * 1000 - frames[0].ts;
        for (const f of frames) f.ts += base;
      }
      frames.sort((a, b) => a.ts - b.ts);
      for (const f of frames) f.ts = Math.round(f.ts);
      const session = randomInt(0x7fffffff);
      const plan = planBatches(frames);
      let bytes = 0;
      await Promise.all(
        plan.map(([s, e], seq) => {
          const data = encodeBatch(frames.slice(s, e), { session, seq });
          const info = checkBatch(data);
          if (typeof info === 'string') throw badRequest('data.bad-format', info);
          bytes += data.byteLength;
          return writer.write({ tenantId: auth.tenantId, thingsId, info, data });
        }),
      );
      await devices.event({ tenantId: auth.tenantId, thingsId }, 'upload', `${frames.length} frames uploaded from ${file.name}`, {
        format: res.format,
        frames: frames.length,
        skipped: res.warnings.length,
      });
      return {
        frames: frames.length,
        chunks: plan.length,
        bytes,
        begin_time: Math.floor(frames[0].ts / 1000),
        end_time: Math.floor(frames[frames.length - 1].ts / 1000),
      };
    },
  };
}
