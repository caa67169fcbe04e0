import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Ecu, EcuCreate, EcuFileType, FaultCode } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { parseFaultCodeFile, parseUnlock } from './ecu-files.ts';

export interface EcuRow {
  id: string;
  tenant_id: string;
  name: string;
  physical_address: number;
  response_address: number;
  function_address: number | null;
  frame_type: 'standard' | 'extended';
  dtc_file_id: string | null;
  dtc_file_name: string | null;
  firmware_file_id: string | null;
  firmware_file_name: string | null;
  unlock_file_id: string | null;
  unlock_file_name: string | null;
  created_at: Date;
  updated_at: Date;
}

interface FileRow {
  id: string;
  type: EcuFileType;
  name: string;
  file_name: string;
  size: number;
  md5: string;
  content: unknown;
  created_at: Date;
}

const ECU = `e.id, e.tenant_id, e.name, e.physical_address::float8 as physical_address, e.response_address::float8 as response_address,
  e.function_address::float8 as function_address, e.frame_type, e.dtc_file_id, d.name as dtc_file_name, e.firmware_file_id,
  f.name as firmware_file_name, e.unlock_file_id, u.name as unlock_file_name, e.created_at, e.updated_at`;
const JOINS = `from ecus e left join candtu_files d on d.id = e.dtc_file_id left join candtu_files f on f.id = e.firmware_file_id
  left join candtu_files u on u.id = e.unlock_file_id`;
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

const unique = (e: unknown) => (e as { code?: string })?.code === '23505';
const nameUsed = () => conflict('can-dtu-10012', 'Name already used', 'name');

/**
 * ECUs of a tenant (spec §3: addresses, frame type, DTC file, firmware package, unlock file) and
 * their files: fault-code lists (CSV/JSON import), firmware packages, unlock (seed/key) files.
 */
export function ecuService(raw: RawSql, dataDir: string) {
  const dir = (tenantId: string) => path.join(dataDir, 'candtu', tenantId);

  async function fileOf(auth: Auth, id: string, type: EcuFileType): Promise<FileRow> {
    const { rows } = await raw.query<FileRow>(
      'select id, type, name, file_name, size::float8 as size, md5, content, created_at from candtu_files where id = $1 and tenant_id = $2 and type = $3',
      [id, auth.tenantId, type],
    );
    if (!rows[0])
      throw new ApiError(404, 'can-dtu.10005', type === 'dtc' ? 'Fault code file does not exist' : `The ${type} file does not exist`);
    return rows[0];
  }

  async function checkFiles(auth: Auth, e: Partial<EcuCreate>) {
    if (e.dtc_file_id) await fileOf(auth, e.dtc_file_id, 'dtc');
    if (e.firmware_file_id) await fileOf(auth, e.firmware_file_id, 'firmware');
    if (e.unlock_file_id) await fileOf(auth, e.unlock_file_id, 'unlock');
  }

  async function get(auth: Auth, id: string): Promise<EcuRow> {
    const { rows } = await raw.query<EcuRow>(`select ${ECU} ${JOINS} where e.id = $1 and e.tenant_id = $2`, [id, auth.tenantId]);
    if (!rows[0]) throw notFound('ECU not found');
    return rows[0];
  }

  return {
    get: async (auth: Auth, id: string) => toEcu(await get(auth, id)),
    row: get,

    async list(auth: Auth, keyword?: string) {
      const { rows } = await raw.query<EcuRow>(
        `select ${ECU} ${JOINS} where e.tenant_id = $1 and ($2::text is null or e.name ilike '%' || $2 || '%') order by e.name limit 1000`,
        [auth.tenantId, keyword ?? null],
      );
      return rows.map(toEcu);
    },

    async create(auth: Auth, e: EcuCreate) {
      await checkFiles(auth, e);
      try {
        const { rows } = await raw.query<{ id: string }>(
          `insert into ecus (tenant_id, name, physical_address, response_address, function_address, frame_type, dtc_file_id, firmware_file_id, unlock_file_id)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9) returning id`,
          [
            auth.tenantId,
            e.name,
            e.physical_address,
            e.response_address,
            e.function_address ?? null,
            e.frame_type,
            e.dtc_file_id ?? null,
            e.firmware_file_id ?? null,
            e.unlock_file_id ?? null,
          ],
        );
        return toEcu(await get(auth, rows[0].id));
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
        await raw.query(
          `update ecus set name = $3, physical_address = $4, response_address = $5, function_address = $6, frame_type = $7,
                  dtc_file_id = $8, firmware_file_id = $9, unlock_file_id = $10, updated_at = now() where id = $1 and tenant_id = $2`,
          [
            id,
            auth.tenantId,
            merged.name,
            merged.physical_address,
            merged.response_address,
            merged.function_address ?? null,
            merged.frame_type,
            merged.dtc_file_id ?? null,
            merged.firmware_file_id ?? null,
            merged.unlock_file_id ?? null,
          ],
        );
      } catch (err) {
        if (unique(err)) throw nameUsed();
        throw err;
      }
      return toEcu(await get(auth, id));
    },

    async remove(auth: Auth, id: string) {
      const { rows } = await raw.query<{ id: string }>('delete from ecus where id = $1 and tenant_id = $2 returning id', [
        id,
        auth.tenantId,
      ]);
      if (!rows[0]) throw notFound('ECU not found');
    },

    async files(auth: Auth, type?: EcuFileType) {
      const { rows } = await raw.query<FileRow>(
        `select id, type, name, file_name, size::float8 as size, md5, content, created_at from candtu_files
          where tenant_id = $1 and ($2::text is null or type = $2) order by created_at desc limit 1000`,
        [auth.tenantId, type ?? null],
      );
      return rows.map(toFile);
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
        const { rows } = await raw.query<{ id: string }>(
          `insert into candtu_files (tenant_id, type, name, file_name, size, md5, content, created_by) values ($1,$2,$3,$4,$5,$6,$7::jsonb,$8) returning id`,
          [
            auth.tenantId,
            type,
            name,
            file.name.slice(0, 255),
            file.bytes.length,
            md5,
            content === null ? null : JSON.stringify(content),
            auth.userId,
          ],
        );
        id = rows[0].id;
      } catch (err) {
        if (unique(err)) throw nameUsed();
        throw err;
      }
      await fs.promises.mkdir(dir(auth.tenantId), { recursive: true });
      await fs.promises.writeFile(path.join(dir(auth.tenantId), `${id}.bin`), file.bytes);
      return toFile(await fileOf(auth, id, type));
    },

    async removeFile(auth: Auth, id: string) {
      const used = await raw.query<{ name: string }>(
        'select name from ecus where tenant_id = $1 and (dtc_file_id = $2 or firmware_file_id = $2 or unlock_file_id = $2) limit 5',
        [auth.tenantId, id],
      );
      if (used.rows.length) throw conflict('can-dtu-10011', 'Fault code file is in use', undefined);
      const { rows } = await raw.query<{ id: string }>('delete from candtu_files where id = $1 and tenant_id = $2 returning id', [
        id,
        auth.tenantId,
      ]);
      if (!rows[0]) throw new ApiError(404, 'can-dtu.10005', 'Fault code file does not exist');
      await fs.promises.rm(path.join(dir(auth.tenantId), `${id}.bin`), { force: true });
    },

    async faultCodes(auth: Auth, id: string): Promise<FaultCode[]> {
      return ((await fileOf(auth, id, 'dtc')).content as FaultCode[]) ?? [];
    },

    async unlockOf(auth: Auth, id: string) {
      return (await fileOf(auth, id, 'unlock')).content as { level: number; steps: never[] };
    },

    async firmwareBytes(auth: Auth, id: string): Promise<Uint8Array> {
      await fileOf(auth, id, 'firmware');
      return fs.promises.readFile(path.join(dir(auth.tenantId), `${id}.bin`));
    },
  };
}

export type EcuService = ReturnType<typeof ecuService>;
