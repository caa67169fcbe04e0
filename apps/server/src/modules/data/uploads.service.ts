import { randomInt } from 'node:crypto';
import { BatchError, checkBatch, encodeBatch, planBatches } from '@loggerhead/can/protocol/batch.ts';
import type { UploadResult } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { ChunkWriter } from '../../ingest/chunk-writer.ts';
import type { DeviceDirectory } from '../../ingest/device-directory.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError } from '../../lib/errors.ts';
import { uploadTooLarge } from '../../lib/inflate.ts';
import { LogTooLargeError, readLogStream } from '../../lib/log-file.ts';
import { requireDevice } from '../things/things.access.ts';
import { type DataJobLimit, dataJobs } from './data-jobs.ts';

/** A log without absolute times before this (µs) is taken as relative to its start. */
const ABSOLUTE_AFTER_US = Date.UTC(2000, 0, 1) * 1000;
/** Skipped lines/objects listed in an upload's answer (all are counted). */
export const MAX_SKIPPED_LISTED = 100;

export interface LogUpload {
  name: string;
  /** The file's bytes, or its bytes as they arrive (an upload stream, a file on disk). */
  bytes: Uint8Array | AsyncIterable<Uint8Array>;
  /** Set by the caller once `bytes` is consumed when the source was cut at its size limit. */
  truncated?: () => boolean;
}

/**
 * A log file (candump -L, Vector ASC, BLF, PEAK TRC, each also gzip-compressed) into a device's
 * history: the frames go through the same batch encoding and chunk writer as MQTT uplinks, so
 * history, live and export treat them alike. Lines or objects that cannot be read are skipped and
 * listed in the answer; a file from which nothing could be read is refused whole (400, with the
 * line or byte offset), and nothing about a bad file ever becomes a 5xx.
 */
export function uploadsService(
  raw: RawSql,
  writer: ChunkWriter,
  devices: DeviceDirectory,
  maxInflatedBytes = 256 * 1024 * 1024,
  /** The package's concurrent_data_jobs: past it 429 data.jobs-busy before the file is read. */
  jobLimit?: DataJobLimit,
) {
  const jobs = dataJobs(raw, jobLimit);
  async function upload(auth: Auth, thingsId: string, file: LogUpload, startTimeMs?: number): Promise<UploadResult> {
    let res: Awaited<ReturnType<typeof readLogStream>>;
    try {
      res = await readLogStream(file.bytes, { name: file.name, maxInflatedBytes });
    } catch (e) {
      if (e instanceof LogTooLargeError) throw uploadTooLarge(e);
      throw e;
    }
    if (file.truncated?.()) throw new ApiError(413, 'http.413', 'The file is larger than the upload limit (MAX_UPLOAD_MB)');
    if (res.error || !res.format) {
      throw new ApiError(400, 'data.bad-format', res.error, res.errorAt ? { details: { ...res.errorAt } } : undefined);
    }
    const skipped = res.warnings.slice(0, MAX_SKIPPED_LISTED).map((w) => ({
      ...(w.line !== undefined ? { line: w.line } : {}),
      ...(w.offset !== undefined ? { offset: w.offset } : {}),
      reason: w.message,
    }));
    const frames = res.frames;
    const answer = { format: res.format, skipped, skipped_count: res.skipped };
    if (!frames.length) return { frames: 0, chunks: 0, bytes: 0, begin_time: null, end_time: null, ...answer };
    // Relative times (a log without a start date) are placed at the given start, or now.
    let first = frames[0].ts;
    for (const f of frames) if (f.ts < first) first = f.ts;
    if (first < ABSOLUTE_AFTER_US) {
      const base = (startTimeMs ?? Date.now()) * 1000 - first;
      for (const f of frames) f.ts += base;
    }
    frames.sort((a, b) => a.ts - b.ts);
    for (const f of frames) f.ts = Math.round(f.ts);
    const session = randomInt(0x7fffffff);
    const plan = planBatches(frames);
    let bytes = 0;
    const batches = plan.map(([s, e], seq) => {
      try {
        const data = encodeBatch(frames.slice(s, e), { session, seq });
        const info = checkBatch(data);
        if (typeof info === 'string') throw new BatchError(info);
        bytes += data.byteLength;
        return { info, data };
      } catch (err) {
        // The readers hand out only storable frames; should one slip through, it is the file's fault.
        if (err instanceof BatchError) throw new ApiError(400, 'data.bad-format', `A frame cannot be stored: ${err.message}`);
        throw err;
      }
    });
    await Promise.all(batches.map(({ info, data }) => writer.write({ tenantId: auth.tenantId, thingsId, info, data })));
    await devices.event({ tenantId: auth.tenantId, thingsId }, 'upload', `${frames.length} frames uploaded from ${file.name}`, {
      format: res.format,
      frames: frames.length,
      skipped: res.skipped,
    });
    return {
      frames: frames.length,
      chunks: plan.length,
      bytes,
      begin_time: Math.floor(frames[0].ts / 1000),
      end_time: Math.floor(frames[frames.length - 1].ts / 1000),
      ...answer,
    };
  }
  return {
    async upload(auth: Auth, thingsId: string, file: LogUpload, startTimeMs?: number): Promise<UploadResult> {
      await requireDevice(raw, auth, thingsId, 'write');
      return jobs.upload(auth.tenantId, () => upload(auth, thingsId, file, startTimeMs));
    },
  };
}
