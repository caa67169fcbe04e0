import type { EcuFileType } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

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

export interface FileRow {
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
export interface NewEcu {
  name: string;
  physicalAddress: number;
  responseAddress: number;
  functionAddress: number | null;
  frameType: 'standard' | 'extended';
  dtcFileId: string | null;
  firmwareFileId: string | null;
  unlockFileId: string | null;
}

/** ECUs of a tenant and their files (fault-code lists, firmware packages, unlock files). */
export function ecuRepository(raw: RawSql) {
  return {
    async file(tenantId: string, id: string, type: EcuFileType): Promise<FileRow | null> {
      const { rows } = await raw.query<FileRow>(
        'select id, type, name, file_name, size::float8 as size, md5, content, created_at from candtu_files where id = $1 and tenant_id = $2 and type = $3',
        [id, tenantId, type],
      );
      return rows[0] ?? null;
    },

    async get(tenantId: string, id: string): Promise<EcuRow | null> {
      const { rows } = await raw.query<EcuRow>(`select ${ECU} ${JOINS} where e.id = $1 and e.tenant_id = $2`, [id, tenantId]);
      return rows[0] ?? null;
    },

    async list(tenantId: string, keyword: string | null): Promise<EcuRow[]> {
      const { rows } = await raw.query<EcuRow>(
        `select ${ECU} ${JOINS} where e.tenant_id = $1 and ($2::text is null or e.name ilike '%' || $2 || '%') order by e.name limit 1000`,
        [tenantId, keyword],
      );
      return rows;
    },

    /** Throws the driver's 23505 when the name is used. */
    async insert(tenantId: string, e: NewEcu): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into ecus (tenant_id, name, physical_address, response_address, function_address, frame_type, dtc_file_id, firmware_file_id, unlock_file_id)
           values ($1,$2,$3,$4,$5,$6,$7,$8,$9) returning id`,
        [
          tenantId,
          e.name,
          e.physicalAddress,
          e.responseAddress,
          e.functionAddress,
          e.frameType,
          e.dtcFileId,
          e.firmwareFileId,
          e.unlockFileId,
        ],
      );
      return rows[0].id;
    },

    /** Throws the driver's 23505 when the name is used. */
    async update(tenantId: string, id: string, e: NewEcu): Promise<void> {
      await raw.query(
        `update ecus set name = $3, physical_address = $4, response_address = $5, function_address = $6, frame_type = $7,
                  dtc_file_id = $8, firmware_file_id = $9, unlock_file_id = $10, updated_at = now() where id = $1 and tenant_id = $2`,
        [
          id,
          tenantId,
          e.name,
          e.physicalAddress,
          e.responseAddress,
          e.functionAddress,
          e.frameType,
          e.dtcFileId,
          e.firmwareFileId,
          e.unlockFileId,
        ],
      );
    },

    /** False when the tenant has no such ECU. */
    async remove(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>('delete from ecus where id = $1 and tenant_id = $2 returning id', [id, tenantId]);
      return rows.length > 0;
    },

    async files(tenantId: string, type: EcuFileType | null): Promise<FileRow[]> {
      const { rows } = await raw.query<FileRow>(
        `select id, type, name, file_name, size::float8 as size, md5, content, created_at from candtu_files
          where tenant_id = $1 and ($2::text is null or type = $2) order by created_at desc limit 1000`,
        [tenantId, type],
      );
      return rows;
    },

    /** Throws the driver's 23505 when the name is used. */
    async insertFile(f: {
      tenantId: string;
      type: EcuFileType;
      name: string;
      fileName: string;
      size: number;
      md5: string;
      content: string | null;
      createdBy: string | null;
    }): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into candtu_files (tenant_id, type, name, file_name, size, md5, content, created_by) values ($1,$2,$3,$4,$5,$6,$7::jsonb,$8) returning id`,
        [f.tenantId, f.type, f.name, f.fileName, f.size, f.md5, f.content, f.createdBy],
      );
      return rows[0].id;
    },

    /** Names of (up to five) ECUs that use the file. */
    async fileUsers(tenantId: string, id: string): Promise<{ name: string }[]> {
      const used = await raw.query<{ name: string }>(
        'select name from ecus where tenant_id = $1 and (dtc_file_id = $2 or firmware_file_id = $2 or unlock_file_id = $2) limit 5',
        [tenantId, id],
      );
      return used.rows;
    },

    /** False when the tenant has no such file. */
    async removeFile(tenantId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query<{ id: string }>('delete from candtu_files where id = $1 and tenant_id = $2 returning id', [
        id,
        tenantId,
      ]);
      return rows.length > 0;
    },
  };
}
