import {
  type DataField,
  type DataFieldInputSchema,
  type DataFieldUpdateSchema,
  type DataGroup,
  type DataGroupInputSchema,
  type DataGroupUpdateSchema,
  type DeviceTypeDataSchema,
  FIELDS_PER_GROUP_MAX,
  GROUPS_PER_TYPE_MAX,
} from '@loggerhead/contract/schemas/device-type-schema.ts';
import type { z } from 'zod';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, notFound } from '../../lib/errors.ts';
import type { DeviceTypeSchemaRepository } from './device-type-schema.repository.ts';

type GroupInput = z.output<typeof DataGroupInputSchema>;
type GroupUpdate = z.output<typeof DataGroupUpdateSchema>;
type FieldInput = z.output<typeof DataFieldInputSchema>;
type FieldUpdate = z.output<typeof DataFieldUpdateSchema>;

const taken = (code: 'device-type.group-name-taken' | 'device-type.field-name-taken') =>
  new ApiError(409, code, undefined, { field: 'name' });
const tooMany = (limit: number) => new ApiError(400, 'device-type.too-many', undefined, { details: { limit } });

/** Two writers racing past the name check meet the unique index instead. */
async function uniquely<T>(code: 'device-type.group-name-taken' | 'device-type.field-name-taken', fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw taken(code);
    throw e;
  }
}

/** Data groups and fields of a device type, per tenant (spec §3 device type). */
export function deviceTypeSchemaService(repo: DeviceTypeSchemaRepository) {
  async function visibleType(auth: Auth, typeId: string) {
    if (!(await repo.typeVisible(auth, typeId))) throw notFound('Device type not found');
  }
  async function existingGroup(auth: Auth, typeId: string, groupId: string) {
    await visibleType(auth, typeId);
    const g = await repo.group(auth, typeId, groupId);
    if (!g) throw notFound('Data group not found');
    return g;
  }
  async function groupWithFields(auth: Auth, typeId: string, groupId: string): Promise<DataGroup> {
    const g = await existingGroup(auth, typeId, groupId);
    return { ...g, fields: await repo.fields(auth, groupId) };
  }

  return {
    async get(auth: Auth, typeId: string): Promise<DeviceTypeDataSchema> {
      await visibleType(auth, typeId);
      const [groups, fields] = await Promise.all([repo.groups(auth, typeId), repo.fieldsOfType(auth, typeId)]);
      return {
        device_type_id: typeId,
        groups: groups.map((g) => ({ ...g, fields: fields.filter((f) => f.group_id === g.id) })),
      };
    },

    async createGroup(auth: Auth, typeId: string, input: GroupInput): Promise<DataGroup> {
      await visibleType(auth, typeId);
      if ((await repo.countGroups(auth, typeId)) >= GROUPS_PER_TYPE_MAX) throw tooMany(GROUPS_PER_TYPE_MAX);
      if (await repo.groupNameTaken(auth, typeId, input.name, null)) throw taken('device-type.group-name-taken');
      const id = await uniquely('device-type.group-name-taken', () => repo.insertGroup(auth, typeId, input));
      return groupWithFields(auth, typeId, id);
    },

    async updateGroup(auth: Auth, typeId: string, groupId: string, patch: GroupUpdate): Promise<DataGroup> {
      await existingGroup(auth, typeId, groupId);
      if (patch.name !== undefined && (await repo.groupNameTaken(auth, typeId, patch.name, groupId))) {
        throw taken('device-type.group-name-taken');
      }
      await uniquely('device-type.group-name-taken', () => repo.updateGroup(auth, groupId, patch));
      return groupWithFields(auth, typeId, groupId);
    },

    async deleteGroup(auth: Auth, typeId: string, groupId: string): Promise<void> {
      await existingGroup(auth, typeId, groupId);
      await repo.deleteGroup(auth, groupId);
    },

    async createField(auth: Auth, typeId: string, groupId: string, input: FieldInput): Promise<DataField> {
      await existingGroup(auth, typeId, groupId);
      if ((await repo.fields(auth, groupId)).length >= FIELDS_PER_GROUP_MAX) throw tooMany(FIELDS_PER_GROUP_MAX);
      if (await repo.fieldNameTaken(auth, groupId, input.name, null)) throw taken('device-type.field-name-taken');
      const id = await uniquely('device-type.field-name-taken', () => repo.insertField(auth, groupId, input));
      return (await repo.field(auth, groupId, id)) as DataField;
    },

    async updateField(auth: Auth, typeId: string, groupId: string, fieldId: string, patch: FieldUpdate): Promise<DataField> {
      await existingGroup(auth, typeId, groupId);
      if (!(await repo.field(auth, groupId, fieldId))) throw notFound('Field not found');
      if (patch.name !== undefined && (await repo.fieldNameTaken(auth, groupId, patch.name, fieldId))) {
        throw taken('device-type.field-name-taken');
      }
      await uniquely('device-type.field-name-taken', () => repo.updateField(auth, fieldId, patch));
      return (await repo.field(auth, groupId, fieldId)) as DataField;
    },

    async deleteField(auth: Auth, typeId: string, groupId: string, fieldId: string): Promise<void> {
      await existingGroup(auth, typeId, groupId);
      if (!(await repo.field(auth, groupId, fieldId))) throw notFound('Field not found');
      await repo.deleteField(auth, fieldId);
    },
  };
}
