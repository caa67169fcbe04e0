import type { Group, GroupCommand, GroupCommandIssue, GroupInput } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import type { CommandService } from '../command/command.service.ts';
import type { ProjectNarrowing } from '../project/project.narrowing.ts';
import { requireDevicesWritable, restrictedUser } from '../things/things.access.ts';
import type { GroupCommandRow, GroupRepository, GroupRow } from './group.repository.ts';

const toGroup = (r: GroupRow): Group => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  things_count: r.things_count,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const toSummary = (r: GroupCommandRow) => ({
  id: r.id,
  group_id: r.group_id,
  description: r.description,
  operation_name: r.operation_name,
  operation_params: r.operation_params,
  created_at: ms(r.created_at) ?? 0,
  states: r.states ?? {},
});

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const groupNotFound = () => new ApiError(404, 'group.not-found');

/**
 * Device groups (spec §7 /out-group-mgmt): a group holds devices of its tenant; a group command
 * sends one device command to every member through the command service, so each member's command
 * is queued, sent, answered or timed out exactly as a single command is. A group that loses a device,
 * or is deleted, ends the sessions of the members of the projects that hold it (`projects`).
 */
export function groupService(
  raw: RawSql,
  repo: GroupRepository,
  commands: Pick<CommandService, 'target' | 'issueRaw'>,
  projects: Pick<ProjectNarrowing, 'narrowing'>,
) {
  async function group(auth: Auth, id: string): Promise<GroupRow> {
    const g = await repo.get(auth, id);
    if (!g) throw groupNotFound();
    return g;
  }

  /** The devices named, all of the tenant and writable by the caller (binding changes what they take part in). */
  async function devices(auth: Auth, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const found = new Set(await repo.tenantThings(auth, unique));
    if (unique.some((id) => !found.has(id))) throw notFound('Device not found');
    await requireDevicesWritable(raw, auth, unique);
    return unique;
  }

  async function commandOne(auth: Auth, groupId: string, id: string): Promise<GroupCommand> {
    const row = await repo.command(auth, groupId, id);
    if (!row) throw notFound('Group command not found');
    const user = restrictedUser(auth);
    const items = (await repo.commandItems(auth, id)).map((i) => ({ ...i, answered_at: ms(i.answered_at) }));
    // A sub-user sees its own devices' commands only.
    const visible = user ? new Set((await repo.members(auth, groupId, user, 0, 100_000)).rows.map((m) => m.things_id)) : null;
    return { ...toSummary(row), items: visible ? items.filter((i) => visible.has(i.things_id)) : items };
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string; things_id?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(
        auth,
        { keyword: q.keyword, thingsId: q.things_id },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toGroup) };
    },

    async get(auth: Auth, id: string): Promise<Group> {
      return toGroup(await group(auth, id));
    },

    async create(auth: Auth, body: GroupInput): Promise<Group> {
      if (await repo.nameTaken(auth, body.name)) throw conflict('group.duplicate', undefined, 'name');
      try {
        return toGroup(await group(auth, await repo.insert(auth, { name: body.name, description: body.description ?? null })));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('group.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, body: GroupInput): Promise<Group> {
      await group(auth, id);
      if (await repo.nameTaken(auth, body.name, id)) throw conflict('group.duplicate', undefined, 'name');
      try {
        await repo.update(auth, id, { name: body.name, description: body.description ?? null });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('group.duplicate', undefined, 'name');
        throw e;
      }
      return toGroup(await group(auth, id));
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const narrowed = await projects.narrowing(auth, 'groups', [id]);
      if (!(await repo.remove(auth, id))) throw groupNotFound();
      await narrowed();
    },

    async members(auth: Auth, id: string, page: number, size: number) {
      await group(auth, id);
      if (page * size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.members(auth, id, restrictedUser(auth), (page - 1) * size, size);
      return { total, current_page: page, page_size: size, list: rows.map((r) => ({ ...r, bound_at: ms(r.bound_at) ?? 0 })) };
    },

    async bind(auth: Auth, id: string, thingsIds: string[]) {
      await group(auth, id);
      const changed = await repo.bind(auth, id, await devices(auth, thingsIds));
      return { things_count: (await group(auth, id)).things_count, changed };
    },

    async unbind(auth: Auth, id: string, thingsIds: string[]) {
      await group(auth, id);
      const narrowed = await projects.narrowing(auth, 'groups', [id]);
      const changed = await repo.unbind(auth, id, await devices(auth, thingsIds));
      if (changed) await narrowed();
      return { things_count: (await group(auth, id)).things_count, changed };
    },

    /**
     * Sends the payload to every member. The caller needs write access to each (spec §6: commands
     * are read-write); an offline member's command waits for it (queued) as a single command does.
     */
    async command(auth: Auth, id: string, body: GroupCommandIssue): Promise<GroupCommand> {
      await group(auth, id);
      const members = await repo.memberIds(auth, id);
      if (!members.length) throw badRequest('group.empty');
      await requireDevicesWritable(raw, auth, members);
      const issue = {
        operation_name: body.payload.operation_name,
        operation_params: body.payload.operation_params,
        description: body.description,
        timeout_ms: body.timeout_ms,
        expires_in_ms: body.expires_in_ms,
      };
      const targets = await Promise.all(members.map((m) => commands.target(auth.tenantId, m)));
      // The first member's command checks the params (the operation's validator) before the group command is written.
      const first = await commands.issueRaw(targets[0], issue, auth.userId);
      const commandId = await repo.insertCommand(auth, id, {
        description: body.description ?? null,
        operationName: first.operation_name,
        operationParams: first.operation_params,
      });
      await repo.addCommandItem(auth, commandId, first.things_id, first.correlation_id);
      for (const t of targets.slice(1)) {
        const row = await commands.issueRaw(t, issue, auth.userId);
        await repo.addCommandItem(auth, commandId, row.things_id, row.correlation_id);
      }
      return commandOne(auth, id, commandId);
    },

    async commands(auth: Auth, id: string, page: number, size: number) {
      await group(auth, id);
      if (page * size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.commands(auth, id, (page - 1) * size, size);
      return { total, current_page: page, page_size: size, list: rows.map(toSummary) };
    },

    commandOne,
  };
}
export type GroupService = ReturnType<typeof groupService>;
