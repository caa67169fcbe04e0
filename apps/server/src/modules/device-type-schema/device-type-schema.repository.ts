import type { DataField, DataGroup } from '@loggerhead/contract/schemas/device-type-schema.ts';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

export type GroupRow = Omit<DataGroup, 'fields'>;
export type FieldRow = DataField;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const GROUP_COLS = 'id, device_type_id, name, display_name, description, sort';
const FIELD_COLS =
  'id, group_id, name, display_name, is_array, is_display, notes, display_format, accuracy::int as accuracy, time_format, time_unit, sort';
const FIELD_WRITABLE = [
  'name',
  'display_name',
  'is_array',
  'is_display',
  'notes',
  'display_format',
  'accuracy',
  'time_format',
  'time_unit',
  'sort',
] as const;
const GROUP_WRITABLE = ['name', 'display_name', 'description', 'sort'] as const;

function sets(patch: Record<string, unknown>, allowed: readonly string[], first: number) {
  const keys = allowed.filter((k) => patch[k] !== undefined);
  return { sql: keys.map((k, i) => `${k} = $${first + i}`).join(', '), values: keys.map((k) => patch[k]) };
}

/** SQL of device type data groups and fields; every query scoped by `auth.tenantId`. */
export function deviceTypeSchemaRepository(raw: RawSql) {
  return {
    /** The type when the tenant can see it (its own or a public one). */
    async typeVisible(auth: Auth, typeId: string): Promise<boolean> {
      if (!UUID.test(typeId)) return false;
      const { rows } = await raw.query('select 1 from device_types where id = $1 and (tenant_id is null or tenant_id = $2)', [
        typeId,
        auth.tenantId,
      ]);
      return rows.length > 0;
    },

    async groups(auth: Auth, typeId: string): Promise<GroupRow[]> {
      const { rows } = await raw.query<GroupRow>(
        `select ${GROUP_COLS} from device_type_groups where tenant_id = $1 and device_type_id = $2 order by sort, name`,
        [auth.tenantId, typeId],
      );
      return rows;
    },

    async fieldsOfType(auth: Auth, typeId: string): Promise<FieldRow[]> {
      const { rows } = await raw.query<FieldRow>(
        `select ${FIELD_COLS} from device_type_fields f
          where f.tenant_id = $1 and f.group_id in (select id from device_type_groups where tenant_id = $1 and device_type_id = $2)
          order by sort, name`,
        [auth.tenantId, typeId],
      );
      return rows;
    },

    async group(auth: Auth, typeId: string, groupId: string): Promise<GroupRow | null> {
      if (!UUID.test(groupId)) return null;
      const { rows } = await raw.query<GroupRow>(
        `select ${GROUP_COLS} from device_type_groups where tenant_id = $1 and device_type_id = $2 and id = $3`,
        [auth.tenantId, typeId, groupId],
      );
      return rows[0] ?? null;
    },

    async countGroups(auth: Auth, typeId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from device_type_groups where tenant_id = $1 and device_type_id = $2',
        [auth.tenantId, typeId],
      );
      return rows[0].n;
    },

    async groupNameTaken(auth: Auth, typeId: string, name: string, exceptId: string | null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from device_type_groups where tenant_id = $1 and device_type_id = $2 and name = $3 and ($4::uuid is null or id <> $4::uuid)',
        [auth.tenantId, typeId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insertGroup(auth: Auth, typeId: string, g: Omit<GroupRow, 'id' | 'device_type_id'>): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into device_type_groups (tenant_id, device_type_id, name, display_name, description, sort)
         values ($1,$2,$3,$4,$5,$6) returning id`,
        [auth.tenantId, typeId, g.name, g.display_name, g.description, g.sort],
      );
      return rows[0].id;
    },

    async updateGroup(auth: Auth, groupId: string, patch: Partial<GroupRow>): Promise<void> {
      const s = sets(patch, GROUP_WRITABLE, 3);
      if (!s.sql) return;
      await raw.query(`update device_type_groups set ${s.sql} where tenant_id = $1 and id = $2`, [auth.tenantId, groupId, ...s.values]);
    },

    async deleteGroup(auth: Auth, groupId: string): Promise<void> {
      await raw.query('delete from device_type_groups where tenant_id = $1 and id = $2', [auth.tenantId, groupId]);
    },

    async fields(auth: Auth, groupId: string): Promise<FieldRow[]> {
      const { rows } = await raw.query<FieldRow>(
        `select ${FIELD_COLS} from device_type_fields where tenant_id = $1 and group_id = $2 order by sort, name`,
        [auth.tenantId, groupId],
      );
      return rows;
    },

    async field(auth: Auth, groupId: string, fieldId: string): Promise<FieldRow | null> {
      if (!UUID.test(fieldId)) return null;
      const { rows } = await raw.query<FieldRow>(
        `select ${FIELD_COLS} from device_type_fields where tenant_id = $1 and group_id = $2 and id = $3`,
        [auth.tenantId, groupId, fieldId],
      );
      return rows[0] ?? null;
    },

    async fieldNameTaken(auth: Auth, groupId: string, name: string, exceptId: string | null): Promise<boolean> {
      const { rows } = await raw.query(
        'select 1 from device_type_fields where tenant_id = $1 and group_id = $2 and name = $3 and ($4::uuid is null or id <> $4::uuid)',
        [auth.tenantId, groupId, name, exceptId],
      );
      return rows.length > 0;
    },

    async insertField(auth: Auth, groupId: string, f: Omit<FieldRow, 'id' | 'group_id'>): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into device_type_fields
           (tenant_id, group_id, name, display_name, is_array, is_display, notes, display_format, accuracy, time_format, time_unit, sort)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) returning id`,
        [
          auth.tenantId,
          groupId,
          f.name,
          f.display_name,
          f.is_array,
          f.is_display,
          f.notes,
          f.display_format,
          f.accuracy,
          f.time_format,
          f.time_unit,
          f.sort,
        ],
      );
      return rows[0].id;
    },

    async updateField(auth: Auth, fieldId: string, patch: Partial<FieldRow>): Promise<void> {
      const s = sets(patch, FIELD_WRITABLE, 3);
      if (!s.sql) return;
      await raw.query(`update device_type_fields set ${s.sql} where tenant_id = $1 and id = $2`, [auth.tenantId, fieldId, ...s.values]);
    },

    async deleteField(auth: Auth, fieldId: string): Promise<void> {
      await raw.query('delete from device_type_fields where tenant_id = $1 and id = $2', [auth.tenantId, fieldId]);
    },
  };
}
export type DeviceTypeSchemaRepository = ReturnType<typeof deviceTypeSchemaRepository>;
