import { deflateSync } from 'node:zlib';
import type { CanFrame } from '@loggerhead/can';
import { createLogWriter } from '@loggerhead/can/logs/index.ts';
import { toFrame } from '@loggerhead/can/protocol/batch.ts';
import { type DownloadCreate, type DownloadProgress, DownloadStatus } from '@loggerhead/contract';
import type { BytesCodec } from '../../db/bytea.ts';
import type { RawSql } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import { hex } from '../../live/live-hub.ts';
import { compilePlugin } from '../plugin/plugin.engine.ts';
import { pluginRepository } from '../plugin/plugin.repository.ts';
import { requireDevice } from '../things/things.access.ts';
import { type DataJobLimit, dataJobs } from './data-jobs.ts';
import { type DownloadRow, downloadsRepository } from './downloads.repository.ts';
import { exportFileName } from './export-name.ts';
import { forEachFrameInOrder } from './frame-order.ts';
import { framesRepository } from './frames.repository.ts';
import { rangeOf } from './frames.service.ts';

/** One export holds at most this many frames. */
export const MAX_EXPORT_FRAMES = 20_000_000;

import { EXPERIENCE_EXPORT } from '../experience/limits.ts';

export { EXPERIENCE_EXPORT };

const EXT = { candump: 'log', asc: 'asc', blf: 'blf', trc: 'trc', mf4: 'mf4', csv: 'csv' } as const;
/**
 * Every format is written in pieces of this many frames, the server's thread given back to other
 * work after each: a piece takes a few milliseconds to encode, so a tenant's exports never hold it
 * for long (an export of a whole file at once held it for seconds, twenty at once for half a minute).
 */
const PIECE = 10_000;
/** Lets timers, I/O and other tenants' requests run before the next piece. */
const giveWay = () => new Promise<void>((resolve) => setImmediate(resolve));

const CSV_HEADER = 'ts_us,time,channel,id,ext,fd,brs,esi,rtr,err,dir,dlc,data\n';
/** One frame as a row of a CSV export: the columns of `CSV_HEADER`, as an export plugin sees them. */
function csvRow(f: CanFrame) {
  return {
    ts_us: f.ts,
    time: new Date(Math.floor(f.ts / 1000)).toISOString(),
    channel: f.channel,
    id: f.id.toString(16).toUpperCase(),
    ext: +f.ext,
    fd: +f.fd,
    brs: +f.brs,
    esi: +f.esi,
    rtr: +f.rtr,
    err: +f.err,
    dir: f.tx ? 'Tx' : 'Rx',
    dlc: f.rtr ? (f.dlc ?? 0) : f.data.length,
    data: hex(f.data),
  };
}
function csvLines(frames: CanFrame[]): string {
  let s = '';
  for (const f of frames) {
    const r = csvRow(f);
    s += `${r.ts_us},${r.time},${r.channel},${r.id},${r.ext},${r.fd},${r.brs},${r.esi},${r.rtr},${r.err},${r.dir},${r.dlc},${r.data}\n`;
  }
  return s;
}

/** A plugin export holds at most this many frames (each row is one evaluation of the expression). */
export const MAX_PLUGIN_EXPORT_FRAMES = 1_000_000;

interface ExportPlugin {
  expression: string;
  header: string | null;
  ext: string;
}

/** The rows of a CSV export through an export plugin: a string is the line, another value its JSON, nothing skips the row. */
async function pluginLines(plugin: ExportPlugin, frames: CanFrame[]): Promise<{ text: string; rows: number }> {
  const c = compilePlugin(plugin.expression);
  let text = '';
  let rows = 0;
  // Rows go to a plugin thread a thousand to a message (one round trip each, not one per row).
  for (let at = 0; at < frames.length; at += 1000) {
    for (const r of await c.runEach(frames.slice(at, at + 1000).map(csvRow))) {
      if (r instanceof Error) throw r;
      if (!r.kept) continue;
      text += `${typeof r.output === 'string' ? r.output : JSON.stringify(r.output)}\n`;
      rows++;
    }
  }
  return { text, rows };
}

export function toProgress(r: DownloadRow): DownloadProgress {
  return {
    id: r.id,
    status: r.status,
    process_rate: r.process_rate,
    data_count: Number(r.data_count),
    output_count: Number(r.output_count),
    data_bytes: Number(r.data_bytes),
    upload_bytes: Number(r.upload_bytes),
    estimated_time: r.estimated_time,
    format: r.format,
    file_name: r.file_name,
    error: r.error,
  };
}

/**
 * Export tasks (spec §4 download task): 1 initialising → 4 querying → 2 organising → 5 generating
 * → 3 done; cancelling stops the job between chunks. An export reproduces what the device sent.
 */
export function downloadsService(
  raw: RawSql,
  files: FileStore,
  log: { error: (o: object, m: string) => void },
  codec?: BytesCodec,
  /** This server copy's id (`ctx.jobs.owner`): the export rows it runs name it. */
  owner: string | null = null,
  /** The package limit (documents_download_quota is maximum_total_number_documents_stored): 403 quota.limit-reached past it. */
  assertCanAdd?: (auth: Auth, resource: 'maximum_total_number_documents_stored', current: number) => Promise<void>,
  /** The package's concurrent_data_jobs: past it 429 data.jobs-busy before the export starts. */
  jobLimit?: DataJobLimit,
) {
  const jobs = dataJobs(raw, jobLimit);
  const repo = downloadsRepository(raw);
  const frames = framesRepository(raw, codec);
  const cancelled = new Set<string>();
  const running = new Map<string, Promise<void>>();

  const plugins = pluginRepository(raw);
  /** The export plugin a CSV export names: of the tenant, of the export type. */
  async function exportPlugin(auth: Auth, body: DownloadCreate): Promise<ExportPlugin> {
    const p = await plugins.get(auth.tenantId, body.plugin_id as string);
    if (!p) throw new ApiError(404, 'plugin.not-found', undefined, { field: 'plugin_id' });
    if (p.type !== 'export') throw badRequest('plugin.wrong-type', 'An export names an export plugin', 'plugin_id');
    if (body.format !== 'csv')
      throw badRequest('plugin.wrong-type', 'An export plugin writes the rows of a CSV export: choose csv', 'format');
    return { expression: p.expression, header: p.header, ext: p.file_extension ?? 'txt' };
  }

  const deviceNames = async (auth: Auth, thingsId: string) => repo.deviceNames(auth.tenantId, thingsId);

  async function run(auth: Auth, id: string, thingsId: string, body: DownloadCreate, plugin: ExportPlugin | null = null) {
    const started = Date.now();
    const key = `exports/${auth.tenantId}/${id}.${EXT[body.format]}`;
    const check = () => {
      if (cancelled.has(id)) throw new Error('cancelled');
    };
    try {
      await repo.progress(id, { status: DownloadStatus.querying, process_rate: 1 });
      const range = rangeOf(thingsId, body);
      const bound = await frames.countFrames(auth, range);
      if (bound.frames > MAX_EXPORT_FRAMES)
        throw new ApiError(400, 'http.400', `More than ${MAX_EXPORT_FRAMES} frames: choose a shorter range`);
      if (plugin && bound.frames > MAX_PLUGIN_EXPORT_FRAMES)
        throw new ApiError(400, 'http.400', `An export plugin writes at most ${MAX_PLUGIN_EXPORT_FRAMES} frames: choose a shorter range`);
      await repo.progress(id, { status: DownloadStatus.organising, data_count: bound.frames, upload_bytes: bound.bytes, process_rate: 5 });
      check();
      const filter = {
        channels: body.channels?.length ? new Set(body.channels) : null,
        ids: body.ids?.length ? new Set(body.ids) : null,
        from: range.from,
        to: range.to,
      };
      const fh = await files.create(key);
      let out = 0;
      let read = 0;
      let lastReport = Date.now();
      try {
        // Every log format goes out piece by piece as the frames come (MF4 in DZ blocks); BLF's and
        // MF4's headers are rewritten at the start at the end.
        const writer =
          body.format === 'csv'
            ? null
            : createLogWriter(
                body.format,
                body.format === 'mf4' ? { compress: true, deflate: (raw) => deflateSync(raw, { level: 3 }) } : {},
              );
        let piece: CanFrame[] = [];
        if (plugin) {
          if (plugin.header) await fh.write(`${plugin.header}\n`);
        } else if (body.format === 'csv') await fh.write(CSV_HEADER);
        let written = 0;
        const flushPiece = async () => {
          if (!piece.length) return;
          if (plugin) {
            const out = await pluginLines(plugin, piece);
            await fh.write(out.text);
            written += out.rows;
          } else if (writer) await fh.write(writer.write(piece));
          else await fh.write(csvLines(piece));
          out += piece.length;
          piece = [];
          await giveWay();
        };
        // Frames in time order across chunks (overlapping uploads merge); each chunk as it is
        // taken: cancellation, what is complete so far written out, progress.
        const visit = (ts: number, ch: number, fid: number, fl: number, len: number, data: Uint8Array) => {
          piece.push(toFrame(ts, ch, fid, fl, len, data));
          return true;
        };
        await forEachFrameInOrder(frames.chunks(auth, range, 64), filter, visit, async (c) => {
          check();
          read += c.frame_count;
          if (piece.length >= PIECE) await flushPiece();
          if (Date.now() - lastReport > 500) {
            lastReport = Date.now();
            const rate = bound.frames ? Math.min(90, 5 + Math.floor((85 * read) / bound.frames)) : 90;
            const spent = (Date.now() - started) / 1000;
            await repo.progress(id, {
              process_rate: rate,
              output_count: out + piece.length,
              estimated_time: Math.ceil((spent * (100 - rate)) / rate),
            });
          }
        });
        check();
        await repo.progress(id, { status: DownloadStatus.generating, process_rate: 90 });
        await flushPiece();
        // A plugin's rows are what it wrote, not the frames it was given.
        if (plugin) out = written;
        if (writer) {
          // An empty export is still a whole file of its format (the writers begin at their first write).
          if (!out) await fh.write(writer.write([]));
          await fh.write(writer.end());
          const head = writer.header?.();
          if (head) await fh.writeAt(head, 0);
        }
      } catch (e) {
        await fh.abort();
        throw e;
      }
      await fh.close();
      check();
      const kept = await repo.progress(id, {
        status: DownloadStatus.done,
        process_rate: 100,
        output_count: out,
        data_count: out,
        data_bytes: (await files.size(key)) ?? 0,
        estimated_time: 0,
        file_path: key,
        file_name: exportFileName(
          await deviceNames(auth, thingsId),
          thingsId,
          body.begin_time,
          body.end_time,
          plugin ? plugin.ext : EXT[body.format],
        ),
      });
      // The task was cleaned up while it ran: no row points at the file any more.
      if (!kept) await files.remove(key);
    } catch (e) {
      await files.remove(key).catch(() => {});
      if (cancelled.has(id)) await repo.progress(id, { status: DownloadStatus.cancelled, estimated_time: 0 });
      else {
        log.error({ err: e, id }, 'export failed');
        const msg = e instanceof ApiError ? (Array.isArray(e.body) ? e.message : `${e.body.code}: ${e.message}`) : 'Export failed';
        await repo.progress(id, { status: DownloadStatus.failed, error: msg, estimated_time: 0 }).catch(() => {});
      }
    } finally {
      cancelled.delete(id);
      running.delete(id);
    }
  }

  /**
   * A read-only session's export: within EXPERIENCE_EXPORT's bounds, or refused before anything
   * runs. Old tasks of such sessions go first, so their files never pile up.
   */
  async function insertBounded(auth: Auth, thingsId: string, body: DownloadCreate): Promise<string> {
    const E = EXPERIENCE_EXPORT;
    const limit = `The experience account exports at most one hour and ${E.maxFrames} frames at a time: choose a shorter range`;
    if (body.end_time - body.begin_time > E.maxRangeMs) throw badRequest('data.export-limit', limit, 'end_time');
    const bound = await frames.countFrames(auth, rangeOf(thingsId, body));
    if (bound.frames > E.maxFrames) throw badRequest('data.export-limit', limit, 'end_time');
    const now = Date.now();
    const { id, gone } = await raw.transaction(async (tx) => {
      // One start at a time per tenant, so two visitors cannot both pass the count.
      await repo.lockExperienceStarts(tx, auth.tenantId);
      const gone = await repo.pruneSessions(tx, auth, new Date(now - E.keepMs), E.kept - 1, [...running.keys()]);
      const busy = await repo.unfinishedOfSessions(tx, auth, new Date(now - E.keepMs));
      if (busy.mine >= E.perSession) throw new ApiError(409, 'data.export-busy', undefined, { details: { running: busy.mine } });
      if (busy.all >= E.running) throw new ApiError(429, 'rate.limited');
      return { id: await repo.insert(auth, thingsId, body.format, body, tx), gone };
    });
    for (const f of gone) await files.remove(f).catch(() => {});
    return id;
  }

  return {
    async create(auth: Auth, thingsId: string, body: DownloadCreate): Promise<{ id: string }> {
      await requireDevice(raw, auth, thingsId, 'read');
      rangeOf(thingsId, body);
      const plugin = body.plugin_id ? await exportPlugin(auth, body) : null;
      if (assertCanAdd) await assertCanAdd(auth, 'maximum_total_number_documents_stored', await repo.countStored(auth.tenantId));
      const id = auth.readOnly
        ? await insertBounded(auth, thingsId, body)
        : await jobs.startExport(auth.tenantId, (tx) => repo.insert(auth, thingsId, body.format, body, tx));
      if (owner) await repo.own(id, owner);
      running.set(id, run(auth, id, thingsId, body, plugin));
      return { id };
    },
    async get(auth: Auth, thingsId: string, id: string): Promise<DownloadProgress> {
      await requireDevice(raw, auth, thingsId, 'read');
      const r = await repo.get(auth, thingsId, id);
      if (!r) throw notFound('Download not found');
      return toProgress(r);
    },
    async file(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const r = await repo.get(auth, thingsId, id);
      if (!r) throw notFound('Download not found');
      if (r.status !== DownloadStatus.done || !r.file_path) throw new ApiError(409, 'data.not-ready');
      const file = await files.open(r.file_path);
      if (!file) throw notFound('The export file is gone');
      return { stream: file.stream, name: r.file_name ?? `${id}.${EXT[r.format]}`, size: file.size };
    },
    /** Cancels (or, once done, deletes) an export: only the user who started it, or one who may change the device. */
    async cancel(auth: Auth, thingsId: string, id: string): Promise<void> {
      const access = await requireDevice(raw, auth, thingsId, 'read');
      const r = await repo.get(auth, thingsId, id);
      if (!r) throw notFound('Download not found');
      if (r.user_id !== auth.userId && access !== 'write') throw forbidden('Only who started the export may cancel it');
      if (running.has(id)) {
        cancelled.add(id);
        await running.get(id);
      } else if (r.status === DownloadStatus.done && r.file_path) {
        await files.remove(r.file_path);
        await repo.progress(id, { status: DownloadStatus.cancelled, file_path: null });
      } else if (r.status !== DownloadStatus.cancelled && r.status !== DownloadStatus.failed) {
        await repo.progress(id, { status: DownloadStatus.cancelled });
      }
    },
    /**
     * Exports of a stopped server copy cannot go on (the file was half written, in memory or on that
     * copy's disk): they end as failed with the reason. At start-up this copy also deletes the files
     * its own interrupted exports left behind.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      const n = await repo.failInterrupted(pass.dead(), INTERRUPTED.message);
      if (pass.startup) {
        for (const key of await files.list('exports')) {
          const id = /([0-9a-f-]{36})\.\w+$/.exec(key)?.[1];
          if (!id || !(await repo.keepsFile(id))) await files.remove(key);
        }
      }
      return n;
    },
    /** Waits for running exports (shutdown, tests). */
    async idle() {
      await Promise.all([...running.values()]);
    },
  };
}

export const badFormat = () => badRequest('data.bad-format');
