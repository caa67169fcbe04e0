import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MAX_BATCH_RECALL, Operations, type RecallFileEntry, type RecallTask } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { checkLinkProof } from '../../lib/device-proof.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import { INTERRUPTED, type RecoveryPass } from '../../lib/job-leases.ts';
import type { CommandRow } from '../command/command.repository.ts';
import { type CommandService, type DeviceResponse, toCommand } from '../command/command.service.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import { type FileRow, type RecallRepository, recallRepository, type TaskRow } from './recall.repository.ts';

export interface RecallDeps {
  raw: RawSql;
  commands: CommandService;
  /** The file store: recalled files under `recall/<tenant>/`, parts being received under `recall/<tenant>/.parts/`. */
  files: FileStore;
  /** Base URL devices reach the server at (PUBLIC_URL). */
  publicUrl: () => string;
  usage: { add(tenantId: string, thingsId: string, bytes: number): Promise<void> };
  maxBatch: (tenantId: string) => Promise<number | null>;
  /** Imports a log file into the device's history (the data module's upload path). */
  importLog: (auth: Auth, thingsId: string, file: { name: string; bytes: AsyncIterable<Uint8Array> | Uint8Array }) => Promise<unknown>;
  /** This server copy's id (`ctx.jobs.owner`): the recalls it sends name it. */
  owner?: string;
}

/** A device's answer older than this was not being stored by any live server copy any more. */
const ANSWER_SETTLED_S = 30;

const entry = (f: Partial<RecallFileEntry>): RecallFileEntry => ({
  name: String(f?.name ?? ''),
  size: Math.max(0, Math.round(Number(f?.size) || 0)),
  time: Number.isFinite(Number(f?.time)) && f?.time !== null ? Math.round(Number(f?.time)) : null,
});

/** Device file names become safe local names: no directories, only [A-Za-z0-9._-]. */
export const safeName = (s: string) => s.replace(/[^\w.-]/g, '_').slice(0, 200);
export const storedName = (thingsId: string, filename: string) => `${thingsId}_${safeName(filename)}`;
/** Store key of a recalled file. */
export const recalledKey = (tenantId: string, name: string) => `recall/${tenantId}/${safeName(name)}`;
export const downloadUrl = (name: string) => `/v1/filemanager/upload/commonfile/${encodeURIComponent(name)}`;

function toTask(r: TaskRow): RecallTask {
  const size = r.size === null ? null : Number(r.size);
  return {
    id: r.id,
    things_id: r.things_id,
    batch_id: r.batch_id,
    filename: r.filename,
    state: r.state,
    code: r.code,
    message: r.message,
    size,
    received: Number(r.received),
    process_rate: r.state === 'done' ? 100 : size ? Math.min(99, Math.floor((Number(r.received) / size) * 100)) : 0,
    correlation_id: r.correlation_id,
    url: r.state === 'done' ? downloadUrl(storedName(r.things_id, r.filename)) : null,
    created_at: ms(r.created_at) ?? 0,
    finished_at: ms(r.finished_at),
  };
}

const toFile = (f: FileRow) => ({
  name: f.name,
  things_id: f.things_id,
  filename: f.filename,
  size: Number(f.size),
  time: f.file_time === null ? null : Number(f.file_time),
  sha256: f.sha256,
  stored_at: ms(f.stored_at) ?? 0,
});

/**
 * File recall (spec §4 "device storage data"): list the logger's SD card, fetch files through a
 * one-time upload URL (resumable by offset), delete on the device, batch recall within the
 * package limit, and keep recalled files per device (downloadable, importable into history).
 */
export function recallService(deps: RecallDeps, repo: RecallRepository = recallRepository(deps.raw)) {
  const { raw, commands } = deps;
  const files = deps.files;
  const filePath = recalledKey;
  const partPath = (tenantId: string, taskId: string) => `recall/${tenantId}/.parts/${taskId}.part`;

  async function checkSize(auth: Auth, thingsId: string, filename: string, size: number | undefined) {
    const listed = size ?? (await repo.listedSize(auth.tenantId, thingsId, filename));
    if (listed === 0) throw badRequest('recall.empty-file', undefined, 'size');
    return listed;
  }

  /** Brings an open task up to date with its command (time-out, failure seen by any server copy). */
  async function sync(t: TaskRow): Promise<TaskRow> {
    if (!['sending', 'device', 'fetching'].includes(t.state) || !t.correlation_id) return t;
    const c = await repo.commandState(t.things_id, t.correlation_id);
    const s = c?.state;
    if (s === 'timeout' || s === 'expired')
      return (await repo.finish(t.id, 'timeout', 'recall.timeout.003', 'The device did not answer in time')) ?? t;
    if (s === 'cancelled') return (await repo.finish(t.id, 'cancelled', null, 'cancelled')) ?? t;
    if (s === 'failed') return (await repo.finish(t.id, 'failed', c?.code === 1 ? 'recall.001' : null, c?.message ?? null)) ?? t;
    if (t.state === 'sending' && (s === 'sent' || s === 'delivered')) return { ...t, state: 'device' };
    return t;
  }

  async function recallOne(auth: Auth, thingsId: string, f: { filename: string; size?: number; time?: number }, batchId: string | null) {
    const size = await checkSize(auth, thingsId, f.filename, f.size);
    const token = randomBytes(24).toString('hex');
    const task = await repo.insertTask({
      tenantId: auth.tenantId,
      thingsId,
      batchId,
      filename: f.filename,
      size,
      token,
      createdBy: auth.userId,
      owner: deps.owner ?? null,
    });
    try {
      const t = await commands.target(auth.tenantId, thingsId);
      const url = `${deps.publicUrl().replace(/\/$/, '')}/v1/filemanager/recall-upload/${token}`;
      const cmd = await commands.issueRaw(
        t,
        { operation_name: Operations.recallFile, operation_params: { filename: f.filename, url } },
        auth.userId,
      );
      await repo.setCorrelation(task.id, cmd.correlation_id, cmd.state === 'queued' ? 'sending' : 'device');
    } catch (e) {
      await repo.finish(task.id, 'failed', 'recall.timeout.002', 'The recall command could not be sent');
      throw e;
    }
    return toTask((await repo.task(auth.tenantId, thingsId, task.id)) as TaskRow);
  }

  async function finishUpload(cmd: CommandRow, resp: DeviceResponse) {
    const task = await repo.byCorrelation(cmd.things_id, cmd.correlation_id);
    if (!task || !['sending', 'device', 'fetching'].includes(task.state)) return;
    const part = partPath(task.tenant_id, task.id);
    if (resp.code !== 0) {
      await repo.finish(task.id, 'failed', resp.code === 1 ? 'recall.001' : null, resp.message ?? 'The device could not send the file');
      await files.removeParts(part);
      return;
    }
    const p = (resp.payload ?? {}) as { size?: number; sha256?: string; time?: number };
    const bytes = await files.readParts(part);
    if (!bytes || typeof p.size !== 'number') {
      await repo.finish(task.id, 'failed', 'recall.002', 'No URL and no part information for this file');
      return;
    }
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== p.size || (p.sha256 && p.sha256 !== sha)) {
      await repo.finish(task.id, 'failed', 'recall.bad-upload', `Received ${bytes.length} bytes, the device sent ${p.size}`);
      await files.removeParts(part);
      return;
    }
    const name = storedName(task.things_id, task.filename);
    await files.put(filePath(task.tenant_id, name), bytes);
    await files.removeParts(part);
    const { previous } = await repo.upsertFile({
      tenant_id: task.tenant_id,
      things_id: task.things_id,
      name,
      filename: task.filename,
      size: bytes.length,
      sha256: sha,
      file_time: typeof p.time === 'number' && Number.isFinite(p.time) ? Math.round(p.time) : Date.now(),
    });
    await deps.usage.add(task.tenant_id, task.things_id, bytes.length - (previous ?? 0));
    await repo.finish(task.id, 'done', null, null, bytes.length);
  }

  commands.onResponse(Operations.recallFile, async (cmd, resp) => {
    if (resp.partial) return; // parts are tracked by the upload endpoint
    try {
      await finishUpload(cmd, resp);
    } catch (e) {
      const task = await repo.byCorrelation(cmd.things_id, cmd.correlation_id);
      if (task) await repo.finish(task.id, 'failed', null, `The file could not be stored: ${(e as Error)?.message ?? e}`);
      throw e;
    }
  });

  return {
    /**
     * Recalls a stopped server copy was sending: a command that went out is the device's to answer
     * (the task waits for it again); one that never went out ends as failed with the reason. A final
     * answer that was stored but whose file was not (the copy stopped while storing it) is stored now
     * from the received parts, or ends as failed.
     */
    async recover(pass: RecoveryPass): Promise<number> {
      let n = await repo.linkInterrupted(pass.dead(), Operations.recallFile);
      n += await repo.failUnsent(pass.dead(), INTERRUPTED.code, INTERRUPTED.message);
      for (const t of await repo.answeredOpen(pass.startup && pass.alone ? 0 : ANSWER_SETTLED_S)) {
        n++;
        if ((await files.partsSize(partPath(t.tenant_id, t.id))) > 0) {
          const c = t.command;
          await finishUpload(c, {
            correlation_id: c.correlation_id,
            code: 0,
            message: c.message ?? undefined,
            payload: c.result ?? undefined,
          });
          continue;
        }
        const f = await repo.file(t.tenant_id, storedName(t.things_id, t.filename));
        if (f && new Date(f.stored_at).getTime() >= new Date(t.created_at).getTime())
          await repo.finish(t.id, 'done', null, null, Number(f.size));
        else await repo.finish(t.id, 'failed', INTERRUPTED.code, INTERRUPTED.message);
      }
      return n;
    },

    async list(
      auth: Auth,
      thingsId: string,
      q: { page_size: number; current_page: number; filter: { starttime?: number; endtime?: number } },
    ) {
      await requireDevice(raw, auth, thingsId, 'write');
      const t = await commands.target(auth.tenantId, thingsId);
      const cmd = await commands.issueRaw(t, { operation_name: Operations.recallFileList, operation_params: q }, auth.userId);
      return this.listResult(auth, thingsId, cmd.correlation_id);
    },

    /** Polled by the console: the list once the device answered, or the code why not. */
    async listResult(auth: Auth, thingsId: string, correlationId: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const c = await repo.listCommand(auth.tenantId, thingsId, correlationId, Operations.recallFileList);
      if (!c) throw notFound('List request not found');
      const res = (c.result ?? {}) as { total?: number; files?: RecallFileEntry[] };
      const code =
        c.state === 'timeout' || c.state === 'expired'
          ? 'recall.timeout.003'
          : c.state === 'failed'
            ? c.code === 1
              ? 'recall.001'
              : 'recall.timeout.002'
            : null;
      // What the device sent, shaped to spec §3 entries (a device may send fractional times or odd types).
      const list = c.state === 'answered' && Array.isArray(res.files) ? res.files.map(entry) : [];
      return { command: toCommand(c), code, total: c.state === 'answered' ? (res.total ?? list.length) : null, list };
    },

    async recall(auth: Auth, thingsId: string, f: { filename: string; size?: number; time?: number }) {
      await requireDevice(raw, auth, thingsId, 'write');
      return recallOne(auth, thingsId, f, null);
    },

    async batch(auth: Auth, thingsId: string, files: { filename: string; size?: number; time?: number }[]) {
      await requireDevice(raw, auth, thingsId, 'write');
      const limit = Math.min(MAX_BATCH_RECALL, (await deps.maxBatch(auth.tenantId)) ?? MAX_BATCH_RECALL);
      if (files.length > limit)
        throw new ApiError(400, 'recall.batch-too-large', `At most ${limit} files in one batch recall`, { details: { limit } });
      for (const f of files) await checkSize(auth, thingsId, f.filename, f.size);
      const batchId = randomUUID();
      const tasks: RecallTask[] = [];
      for (const f of files) tasks.push(await recallOne(auth, thingsId, f, batchId));
      return { batch_id: batchId, tasks };
    },

    async task(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'read');
      const t = await repo.task(auth.tenantId, thingsId, id);
      if (!t) throw notFound('Recall not found');
      return toTask(await sync(t));
    },

    async tasks(auth: Auth, thingsId: string, batchId: string | null) {
      await requireDevice(raw, auth, thingsId, 'read');
      const rows = await repo.tasks(auth.tenantId, thingsId, batchId, 100);
      return Promise.all(rows.map(async (r) => toTask(await sync(r))));
    },

    async cancel(auth: Auth, thingsId: string, id: string) {
      await requireDevice(raw, auth, thingsId, 'write');
      const t = await repo.task(auth.tenantId, thingsId, id);
      if (!t) throw notFound('Recall not found');
      const done = await repo.finish(t.id, 'cancelled', null, 'cancelled by user');
      if (t.correlation_id) await commands.cancel(auth, thingsId, t.correlation_id).catch(() => {});
      await files.removeParts(partPath(t.tenant_id, t.id));
      return toTask(done ?? t);
    },

    async deleteOnDevice(auth: Auth, thingsId: string, name: string, size?: number) {
      await requireDevice(raw, auth, thingsId, 'write');
      await checkSize(auth, thingsId, name, size);
      const t = await commands.target(auth.tenantId, thingsId);
      const cmd = await commands.issueRaw(
        t,
        { operation_name: Operations.recallFileDel, operation_params: { filter: { name } } },
        auth.userId,
      );
      return toCommand(cmd);
    },

    /** Device → server: one part of a file at `offset`. Out-of-order parts get the expected offset back. */
    async upload(token: string, proof: string | string[] | undefined, offset: number, body: Buffer, total: number | null) {
      const t = await repo.byToken(token);
      if (!t) throw notFound('Unknown or finished upload');
      await checkLinkProof(raw, t.things_id, token, proof);
      const part = partPath(t.tenant_id, t.id);
      const have = await files.partsSize(part);
      if (offset !== have) throw new ApiError(409, 'recall.bad-upload', `Expected offset ${have}`, { details: { received: have } });
      await files.appendPart(part, offset, body);
      const received = have + body.length;
      await repo.progress(t.id, received, total);
      return { received };
    },

    async uploadStatus(token: string, proof: string | string[] | undefined) {
      const t = await repo.byToken(token);
      if (!t) throw notFound('Unknown or finished upload');
      await checkLinkProof(raw, t.things_id, token, proof);
      return { received: await files.partsSize(partPath(t.tenant_id, t.id)) };
    },

    async files(auth: Auth, thingsId: string | null) {
      if (thingsId) await requireDevice(raw, auth, thingsId, 'read');
      return (await repo.files(auth.tenantId, thingsId, thingsId ? null : restrictedUser(auth))).map(toFile);
    },

    /** A recalled file for download; 404 (code recall.002) when no such file was fetched. */
    async open(auth: Auth, name: string) {
      const f = await repo.file(auth.tenantId, name);
      if (!f) throw new ApiError(404, 'recall.002', 'No URL and no part information for this file');
      await requireDevice(raw, auth, f.things_id, 'read');
      const opened = await files.open(filePath(auth.tenantId, f.name));
      if (!opened) throw new ApiError(404, 'recall.002', 'No URL and no part information for this file');
      return { file: toFile(f), stream: opened.stream };
    },

    async remove(auth: Auth, name: string) {
      const f = await repo.file(auth.tenantId, name);
      if (!f) throw notFound('File not found');
      await requireDevice(raw, auth, f.things_id, 'write');
      await files.remove(filePath(auth.tenantId, f.name));
      await repo.removeFile(auth.tenantId, f.name);
      await deps.usage.add(auth.tenantId, f.things_id, -Number(f.size));
    },

    async importToHistory(auth: Auth, name: string) {
      const f = await repo.file(auth.tenantId, name);
      if (!f) throw notFound('File not found');
      // Importing writes the device's history: checked before the file is even read.
      await requireDevice(raw, auth, f.things_id, 'write');
      const opened = await files.open(filePath(auth.tenantId, f.name));
      if (!opened) throw new ApiError(404, 'recall.002', 'No URL and no part information for this file');
      return deps.importLog(auth, f.things_id, { name: f.filename, bytes: opened.stream });
    },
  };
}

export type RecallService = ReturnType<typeof recallService>;
