import { createHash } from 'node:crypto';
import type { Ecu, EcuCreate, EcuFileType, FaultCode } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { FileStore } from '../../files/file-store.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { type EcuRow, ecuRepository, type FileRow, type NewEcu } from './ecu.repository.ts';
import { parseFaultCodeFile, parseUnlock } from './ecu-files.ts';

const ms = (d: Date) => new Date(d).getTime();

const toEcu = (r: EcuRow): Ecu => ({
  id: r.id,
  name: r.name,
  physical_address: Number(r.physical_address),
  response_address: Number(r.response_address),
  function_address: r.function_address === null ? null : Number(r.function_address),
  frame_type: r.frame_type,
  dtc_file_id: r.dtc_file_id,
  dtc_file_name: r.dtc_file_name,
  firmware_file_id: r.firmware_file_id,
  firmware_file_name: r.firmware_file_name,
  unlock_file_id: r.unlock_file_id,
  unlock_file_name: r.unlock_file_name,
  created_at: ms(r.created_at),
  updated_at: ms(r.updated_at),
});

const toFile = (f: FileRow) => ({
  id: f.id,
  type: f.type,
  name: f.name,
  file_name: f.file_name,
  size: Number(f.size),
  md5: f.md5,
  entries: f.type === 'dtc' && Array.isArray(f.content) ? f.content.length : null,
  created_at: ms(f.created_at),
});

/** The columns of a new or edited ECU. */
const asNew = (e: EcuCreate | Ecu): NewEcu => ({
  name: e.name,
  physicalAddress: e.physical_address,
  responseAddress: e.response_address,
  functionAddress: e.function_address ?? null,
  frameType: e.frame_type,
  dtcFileId: e.dtc_file_id ?? null,
  firmwareFileId: e.firmware_file_id ?? null,
  unlockFileId: e.unlock_file_id ?? null,
});

const unique = (e: unknown) => (e as { code?: string })?.code === '23505';
const nameUsed = () => conflict('can-dtu-10012', undefined, 'name');

/**
 * ECUs of a tenant (spec §3: addresses, frame type, DTC file, firmware package, unlock file) and
 * their files: fault-code lists (CSV/JSON import), firmware packages, unlock (seed/key) files.
 */
export function ecuService(raw: RawSql, store: FileStore) {
  const repo = ecuRepository(raw);
  const keyOf = (tenantId: string, id: string) => `candtu/${tenantId}/${id}.bin`;

  async function fileOf(auth: Auth, id: string, type: EcuFileType): Promise<FileRow> {
    const row = await repo.file(auth.tenantId, id, type);
    if (!row)
      throw new ApiError(404, 'can-dtu.10005', type === 'dtc' ? 'Fault code file does not exist' : `The ${type} file does not exist`);
    return row;
  }

  async function checkFiles(auth: Auth, e: Partial<EcuCreate>) {
    if (e.dtc_file_id) await fileOf(auth, e.dtc_file_id, 'dtc');
    if (e.firmware_file_id) await fileOf(auth, e.firmware_file_id, 'firmware');
    if (e.unlock_file_id) await fileOf(auth, e.unlock_file_id, 'unlock');
  }

  async function get(auth: Auth, id: string): Promise<EcuRow> {
    const row = await repo.get(auth.tenantId, id);
    if (!row) throw notFound('ECU not found');
    return row;
  }

  return {
    get: async (auth: Auth, id: string) => toEcu(await get(auth, id)),
    row: get,

    async list(auth: Auth, keyword?: string) {
      return (await repo.list(auth.tenantId, keyword ?? null)).map(toEcu);
    },

    async create(auth: Auth, e: EcuCreate) {
      await checkFiles(auth, e);
      try {
        const id = await repo.insert(auth.tenantId, asNew(e));
        return toEcu(await get(auth, id));
      } catch (err) {
        if (unique(err)) throw nameUsed();
        throw err;
      }
    },

    async update(auth: Auth, id: string, e: Partial<EcuCreate>) {
      const cur = await get(auth, id);
      await checkFiles(auth, e);
      const merged = { ...toEcu(cur), ...e };
      const max = merged.frame_type === 'extended' ? 0x1fffffff : 0x7ff;
      for (const k of ['physical_address', 'response_address', 'function_address'] as const) {
        const v = merged[k];
        if (typeof v === 'number' && v > max) throw badRequest('http.400', `${k} must be at most 0x${max.toString(16).toUpperCase()}`, k);
      }
      try {
        await repo.update(auth.tenantId, id, asNew(merged));
      } catch (err) {
        if (unique(err)) throw nameUsed();
        throw err;
      }
      return toEcu(await get(auth, id));
    },

    async remove(auth: Auth, id: string) {
      if (!(await repo.remove(auth.tenantId, id))) throw notFound('ECU not found');
    },

    async files(auth: Auth, type?: EcuFileType) {
      return (await repo.files(auth.tenantId, type ?? null)).map(toFile);
    },

    async upload(auth: Auth, type: EcuFileType, name: string, file: { name: string; bytes: Buffer }) {
      if (!file.bytes.length) throw badRequest('ecu.bad-file', 'The file is empty', 'file');
      let content: unknown = null;
      if (type === 'dtc') {
        const r = parseFaultCodeFile(file.bytes.toString('utf8'));
        if (typeof r === 'string') throw badRequest('ecu.bad-file', `Fault code file: ${r}`, 'file');
        content = r;
      } else if (type === 'unlock') {
        const r = parseUnlock(file.bytes.toString('utf8'));
        if (typeof r === 'string') throw badRequest('ecu.bad-file', `Unlock file: ${r}`, 'file');
        content = r;
      }
      const md5 = createHash('md5').update(file.bytes).digest('hex');
      let id: string;
      try {
        id = await repo.insertFile({
          tenantId: auth.tenantId,
          type,
          name,
          fileName: file.name.slice(0, 255),
          size: file.bytes.length,
          md5,
          content: content === null ? null : JSON.stringify(content),
          createdBy: auth.userId,
        });
      } catch (err) {
        if (unique(err)) throw nameUsed();
        throw err;
      }
      try {
        await store.put(keyOf(auth.tenantId, id), file.bytes);
      } catch (e) {
        // No file row without its bytes.
        await repo.removeFile(auth.tenantId, id);
        throw e;
      }
      return toFile(await fileOf(auth, id, type));
    },

    async removeFile(auth: Auth, id: string) {
      if ((await repo.fileUsers(auth.tenantId, id)).length) throw conflict('can-dtu-10011');
      if (!(await repo.removeFile(auth.tenantId, id))) throw new ApiError(404, 'can-dtu.10005');
      await store.remove(keyOf(auth.tenantId, id));
    },

    async faultCodes(auth: Auth, id: string): Promise<FaultCode[]> {
      return ((await fileOf(auth, id, 'dtc')).content as FaultCode[]) ?? [];
    },

    async unlockOf(auth: Auth, id: string) {
      return (await fileOf(auth, id, 'unlock')).content as { level: number; steps: never[] };
    },

    async firmwareBytes(auth: Auth, id: string): Promise<Uint8Array> {
      await fileOf(auth, id, 'firmware');
      const bytes = await store.get(keyOf(auth.tenantId, id));
      if (!bytes) throw new ApiError(404, 'can-dtu.10005');
      return bytes;
    },
  };
}

export type EcuService = ReturnType<typeof ecuService>;
