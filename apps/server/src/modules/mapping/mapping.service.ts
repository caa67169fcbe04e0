import {
  DBC_DEFAULT_PROTOCOL,
  type DbcFile,
  type DbcListQuery,
  type DbcMessageInfo,
  ErrorCodes,
  type MappingCode,
  STRATEGY_PREFIX,
  type Strategy,
  type StrategyCreate,
  type StrategySignalRef,
  type StrategyUpdate,
} from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, notFound } from '../../lib/errors.ts';
import { requireDevicesWritable } from '../things/things.access.ts';
import { DbcParseOutOfMemory, DbcParseTimeout, readDbcOffThread } from './dbc-parse.ts';
import type { DbcRead } from './dbc-read.ts';
import { dbcText, signalNames } from './dbc-summary.ts';
import type { DbcRow, MappingRepository, StrategyRow } from './mapping.repository.ts';

export interface DbcUpload {
  fileName: string;
  bytes: Uint8Array;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const msOf = (d: Date) => new Date(d).getTime();
const err = (status: number, code: MappingCode, message?: string, extra?: { field?: string; details?: Record<string, unknown> }) =>
  new ApiError(status, code, message, extra);

export function toDbcFile(r: DbcRow): DbcFile {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    protocol: r.protocol,
    file_name: r.file_name,
    size: r.size,
    message_count: r.message_count,
    signal_count: r.signal_count,
    warnings: r.warnings ?? [],
    bound_channels: r.bound_channels,
    created_at: msOf(r.created_at),
    updated_at: msOf(r.updated_at),
  };
}

function toStrategy(r: StrategyRow): Strategy {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    nickname: r.nickname,
    description: r.description,
    dbc_id: r.dbc_id,
    dbc_name: r.dbc_name,
    signals: r.signals,
    signal_count: r.signals.length,
    remark: r.remark,
    bound_channels: r.bound_channels,
    created_at: msOf(r.created_at),
    updated_at: msOf(r.updated_at),
  };
}

/** The file name an upload is stored under (no folders). */
const baseName = (fileName: string) => fileName.split(/[\\/]/).pop() as string;

/**
 * Reads an upload on a worker thread (dbc-parse.ts): 400 with the line and column of the first
 * error, 413 past the messages or signals one file may hold (counted before the parse), 422 past
 * the deadline. Nothing is stored until it passed.
 */
async function parseUpload(upload: DbcUpload, read: (bytes: Uint8Array) => Promise<DbcRead>) {
  if (!/\.dbc$/i.test(upload.fileName)) throw err(400, 'mapping.dbc-type', undefined, { field: 'file' });
  let r: DbcRead;
  try {
    r = await read(upload.bytes);
  } catch (e) {
    if (e instanceof DbcParseTimeout) throw err(422, 'mapping.dbc-timeout', e.message, { field: 'file' });
    if (e instanceof DbcParseOutOfMemory) throw err(413, 'mapping.dbc-too-large', e.message, { field: 'file' });
    throw e;
  }
  if (!r.ok) {
    if (r.refused === 'invalid') {
      const { line, col, reason } = r.error;
      throw err(400, 'mapping.dbc-invalid', `Line ${line}, column ${col}: ${reason}`, { field: 'file', details: { line, col, reason } });
    }
    const extra = { field: 'file', details: { count: r.count, limit: r.limit } };
    if (r.refused === 'too-many-messages')
      throw err(413, 'mapping.dbc-too-many-messages', `The DBC file has ${r.count} messages; one file may have ${r.limit}`, extra);
    throw err(413, 'mapping.dbc-too-many-signals', `The DBC file has ${r.count} signals; one file may have ${r.limit}`, extra);
  }
  const text = new TextDecoder();
  return {
    file_name: baseName(upload.fileName),
    content: dbcText(upload.bytes),
    size: upload.bytes.byteLength,
    summary: text.decode(r.summary_json),
    names: new Set(text.decode(r.names).split('\n')),
    message_count: r.message_count,
    signal_count: r.signal_count,
    warnings: r.warnings,
  };
}

/** Signal references a DBC summary (or its `Message.Signal` names) lacks. */
function missingSignals(summary: DbcMessageInfo[] | Set<string>, refs: StrategySignalRef[]): string[] {
  const names = summary instanceof Set ? summary : signalNames(summary);
  return refs.map((r) => `${r.message}.${r.signal}`).filter((n) => !names.has(n));
}

/**
 * DBC files and signal strategies (spec §7 mapping-mgmt). `onFilesChanged` tells the decoders of the
 * devices concerned to reload. A file or strategy bound to device channels is changed or deleted
 * only by a caller who may write to every one of those devices (spec §6: DBC add/update/delete is
 * read-write).
 */
export function mappingService(
  repo: MappingRepository,
  onFilesChanged: (thingsIds: string[]) => void,
  raw: RawSql,
  readDbcFile: (bytes: Uint8Array) => Promise<DbcRead> = (bytes) => readDbcOffThread(bytes),
) {
  async function dbcOr404(auth: Auth, id: string): Promise<DbcRow> {
    const row = UUID.test(id) ? await repo.getDbc(auth, id) : undefined;
    if (!row) throw notFound('DBC file not found');
    return row;
  }
  async function strategyOr404(auth: Auth, id: string): Promise<StrategyRow> {
    const row = UUID.test(id) ? await repo.getStrategy(auth, id) : undefined;
    if (!row) throw notFound('Signal strategy not found');
    return row;
  }

  async function checkStrategySignals(auth: Auth, dbcId: string, signals: StrategySignalRef[]) {
    const summary = UUID.test(dbcId) ? await repo.dbcSummary(auth, dbcId) : undefined;
    if (!summary) throw notFound('DBC file not found');
    const keys = signals.map((s) => `${s.message}.${s.signal}`);
    const dup = keys.find((k, i) => keys.indexOf(k) !== i);
    if (dup) throw badRequest('http.400', `${dup} is listed twice`, 'signals');
    const missing = missingSignals(summary, signals);
    if (missing.length)
      throw err(400, 'mapping.unknown-signal', `The DBC file has no ${missing.join(', ')}`, { field: 'signals', details: { missing } });
  }

  return {
    async listDbc(auth: Auth, q: DbcListQuery) {
      const { total, rows } = await repo.listDbc(auth, (q.current_page - 1) * q.page_size, q.page_size, q.keyword);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toDbcFile) };
    },

    getDbc: async (auth: Auth, id: string) => toDbcFile(await dbcOr404(auth, id)),

    async createDbc(auth: Auth, upload: DbcUpload, fields: { name?: string; protocol?: number }): Promise<DbcFile> {
      // The name is checked before the file is read: a taken name costs no parse.
      if (!/\.dbc$/i.test(upload.fileName)) throw err(400, 'mapping.dbc-type', undefined, { field: 'file' });
      const name = fields.name ?? baseName(upload.fileName).replace(/\.dbc$/i, '');
      if (await repo.dbcNameTaken(auth, name)) throw err(409, 'mapping.dbc-name-used', undefined, { field: 'name' });
      const parsed = await parseUpload(upload, readDbcFile);
      const id = await repo.insertDbc(auth, { ...parsed, name, protocol: fields.protocol ?? DBC_DEFAULT_PROTOCOL });
      return toDbcFile(await dbcOr404(auth, id));
    },

    /** Replaces the file and/or renames. Refused when strategies use signals the new file lacks. */
    async updateDbc(auth: Auth, id: string, upload: DbcUpload | null, fields: { name?: string; protocol?: number }): Promise<DbcFile> {
      await dbcOr404(auth, id);
      await requireDevicesWritable(raw, auth, await repo.thingsUsingDbc(auth, id));
      if (fields.name && (await repo.dbcNameTaken(auth, fields.name, id)))
        throw err(409, 'mapping.dbc-name-used', undefined, { field: 'name' });
      const parsed = upload ? await parseUpload(upload, readDbcFile) : null;
      if (parsed) {
        const broken = (await repo.strategiesOfDbc(auth, id))
          .map((s) => ({ name: s.name, missing: missingSignals(parsed.names, s.signals) }))
          .filter((s) => s.missing.length);
        if (broken.length)
          throw err(
            409,
            'mapping.unknown-signal',
            `The new file lacks signals used by ${broken.map((b) => `${b.name} (${b.missing.join(', ')})`).join('; ')}`,
            {
              field: 'file',
              details: { strategies: broken },
            },
          );
      }
      await repo.updateDbc(auth, id, { ...(parsed ?? {}), name: fields.name, protocol: fields.protocol });
      if (parsed) onFilesChanged(await repo.thingsUsingDbc(auth, id));
      return toDbcFile(await dbcOr404(auth, id));
    },

    async deleteDbc(auth: Auth, id: string): Promise<void> {
      const row = await dbcOr404(auth, id);
      await requireDevicesWritable(raw, auth, await repo.thingsUsingDbc(auth, id));
      if (row.bound_channels > 0)
        throw err(409, 'mapping.dbc-in-use', `${ErrorCodes['mapping.dbc-in-use'].message} (${row.bound_channels} channels)`);
      await repo.deleteDbc(auth, id);
    },

    async messages(auth: Auth, id: string, keyword?: string): Promise<DbcMessageInfo[]> {
      await dbcOr404(auth, id);
      const summary = (await repo.dbcSummary(auth, id)) ?? [];
      if (!keyword) return summary;
      const k = keyword.toLowerCase();
      return summary.filter((m) => m.name.toLowerCase().includes(k) || m.signals.some((s) => s.name.toLowerCase().includes(k)));
    },

    async content(auth: Auth, id: string) {
      await dbcOr404(auth, id);
      return (await repo.dbcContent(auth, id)) as { content: string; file_name: string };
    },

    async listStrategies(auth: Auth, q: DbcListQuery & { dbc_id?: string }) {
      if (q.dbc_id && !UUID.test(q.dbc_id)) return { total: 0, current_page: q.current_page, page_size: q.page_size, list: [] };
      const { total, rows } = await repo.listStrategies(auth, (q.current_page - 1) * q.page_size, q.page_size, q.keyword, q.dbc_id);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toStrategy) };
    },

    getStrategy: async (auth: Auth, id: string) => toStrategy(await strategyOr404(auth, id)),

    async createStrategy(auth: Auth, body: StrategyCreate): Promise<Strategy> {
      await checkStrategySignals(auth, body.dbc_id, body.signals);
      const name =
        body.name ??
        `${STRATEGY_PREFIX}${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 36 ** 2)
          .toString(36)
          .toUpperCase()}`;
      if (await repo.strategyNameTaken(auth, name)) throw err(409, 'mapping.strategy-name-used', undefined, { field: 'name' });
      const id = await repo.insertStrategy(auth, {
        name,
        nickname: body.nickname ?? null,
        description: body.description ?? null,
        dbc_id: body.dbc_id,
        signals: body.signals.map((s) => ({ message: s.message, signal: s.signal })),
        remark: body.remark ?? null,
      });
      return toStrategy(await strategyOr404(auth, id));
    },

    async updateStrategy(auth: Auth, id: string, body: StrategyUpdate): Promise<Strategy> {
      const cur = await strategyOr404(auth, id);
      await requireDevicesWritable(raw, auth, await repo.thingsUsingStrategy(auth, id));
      const next = {
        name: body.name ?? cur.name,
        nickname: body.nickname !== undefined ? body.nickname : cur.nickname,
        description: body.description !== undefined ? body.description : cur.description,
        dbc_id: body.dbc_id ?? cur.dbc_id,
        signals: (body.signals ?? cur.signals).map((s) => ({ message: s.message, signal: s.signal })),
        remark: body.remark !== undefined ? body.remark : cur.remark,
      };
      await checkStrategySignals(auth, next.dbc_id, next.signals);
      if (next.name !== cur.name && (await repo.strategyNameTaken(auth, next.name, id)))
        throw err(409, 'mapping.strategy-name-used', undefined, { field: 'name' });
      await repo.updateStrategy(auth, id, next);
      onFilesChanged(await repo.thingsUsingStrategy(auth, id));
      return toStrategy(await strategyOr404(auth, id));
    },

    async deleteStrategy(auth: Auth, id: string): Promise<void> {
      const row = await strategyOr404(auth, id);
      await requireDevicesWritable(raw, auth, await repo.thingsUsingStrategy(auth, id));
      if (row.bound_channels > 0)
        throw err(409, 'mapping.strategy-in-use', `${ErrorCodes['mapping.strategy-in-use'].message} (${row.bound_channels} channels)`);
      await repo.deleteStrategy(auth, id);
    },
  };
}

export type MappingService = ReturnType<typeof mappingService>;
