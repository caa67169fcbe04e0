import type { Project, ProjectBind, ProjectInput, ProjectUnbind } from '@loggerhead/contract';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { restrictedUser } from '../things/things.access.ts';
import type { ProjectKind, ProjectRepository, ProjectRow } from './project.repository.ts';

const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  tenant_id: r.tenant_id,
  name: r.name,
  description: r.description,
  things_count: r.things_count,
  group_count: r.group_count,
  vehicle_count: r.vehicle_count,
  user_count: r.user_count,
  device_count: r.device_count,
  created_at: ms(r.created_at) ?? 0,
  updated_at: ms(r.updated_at) ?? 0,
});

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';
const projectNotFound = () => new ApiError(404, 'project.not-found');
const unknownMember = (field: string) => badRequest('project.unknown-member', undefined, field);

/**
 * Projects (spec §1, §7): a project holds devices, groups, vehicles and sub-users. What a member
 * sub-user may reach follows from the database view every device check reads (user_device_access),
 * so this service only keeps the memberships; when a change takes devices away from members, their
 * sessions end as they do when a manager changes their device grants.
 */
export function projectService(repo: ProjectRepository, endSessionsOf: (userIds: string[]) => Promise<void>) {
  /** A sub-user reaches only the projects it is a member of. */
  async function project(auth: Auth, id: string): Promise<ProjectRow> {
    const p = await repo.get(auth, id, restrictedUser(auth));
    if (!p) throw projectNotFound();
    return p;
  }

  async function known(auth: Auth, kind: ProjectKind, field: string, ids: string[] | undefined): Promise<string[]> {
    const unique = [...new Set(ids ?? [])];
    if (!unique.length) return [];
    const found = new Set(await repo.ofTenant(auth, kind, unique));
    if (unique.some((x) => !found.has(x))) throw unknownMember(field);
    return unique;
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(
        auth,
        { keyword: q.keyword, memberId: restrictedUser(auth) },
        (q.current_page - 1) * q.page_size,
        q.page_size,
      );
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toProject) };
    },

    async get(auth: Auth, id: string): Promise<Project> {
      return toProject(await project(auth, id));
    },

    async create(auth: Auth, body: ProjectInput): Promise<Project> {
      if (await repo.nameTaken(auth, body.name)) throw conflict('project.duplicate', undefined, 'name');
      try {
        return toProject(await project(auth, await repo.insert(auth, { name: body.name, description: body.description ?? null })));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('project.duplicate', undefined, 'name');
        throw e;
      }
    },

    async update(auth: Auth, id: string, body: ProjectInput): Promise<Project> {
      await project(auth, id);
      if (await repo.nameTaken(auth, body.name, id)) throw conflict('project.duplicate', undefined, 'name');
      try {
        await repo.update(auth, id, { name: body.name, description: body.description ?? null });
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('project.duplicate', undefined, 'name');
        throw e;
      }
      return toProject(await project(auth, id));
    },

    async remove(auth: Auth, id: string): Promise<void> {
      await project(auth, id);
      const members = await repo.memberIds(auth, id);
      if (!(await repo.remove(auth, id))) throw projectNotFound();
      await endSessionsOf(members);
    },

    async devices(auth: Auth, id: string, page: number, size: number) {
      await project(auth, id);
      if (page * size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.devices(auth, id, restrictedUser(auth), (page - 1) * size, size);
      return { total, current_page: page, page_size: size, list: rows };
    },

    async members(auth: Auth, id: string) {
      await project(auth, id);
      const m = await repo.members(auth, id);
      // A sub-user sees the project's groups and vehicles, not who else is in it.
      return restrictedUser(auth) ? { ...m, users: m.users.filter((u) => u.user_id === auth.userId) } : m;
    },

    async bind(auth: Auth, id: string, body: ProjectBind) {
      await project(auth, id);
      const things = await known(auth, 'things', 'things_ids', body.things_ids);
      const groups = await known(auth, 'groups', 'group_ids', body.group_ids);
      const vehicles = await known(auth, 'vehicles', 'vehicle_ids', body.vehicle_ids);
      const users = [...new Map((body.users ?? []).map((u) => [u.user_id, u])).values()];
      if (users.length) {
        const found = new Set(
          await repo.subUsers(
            auth,
            users.map((u) => u.user_id),
          ),
        );
        if (users.some((u) => !found.has(u.user_id))) throw unknownMember('users');
      }
      let changed = 0;
      changed += await repo.bind(auth, id, 'things', things);
      changed += await repo.bind(auth, id, 'groups', groups);
      changed += await repo.bind(auth, id, 'vehicles', vehicles);
      const usersChanged = users.length ? await repo.bindUsers(auth, id, users) : 0;
      changed += usersChanged;
      if (changed) await repo.touch(auth, id);
      // A new member now sees only its projects' devices; a lowered access is a narrowed right.
      if (usersChanged) await endSessionsOf(users.map((u) => u.user_id));
      return { changed };
    },

    async unbind(auth: Auth, id: string, body: ProjectUnbind) {
      await project(auth, id);
      const members = await repo.memberIds(auth, id);
      let devicesChanged = 0;
      devicesChanged += await repo.unbind(auth, id, 'things', [...new Set(body.things_ids ?? [])]);
      devicesChanged += await repo.unbind(auth, id, 'groups', [...new Set(body.group_ids ?? [])]);
      devicesChanged += await repo.unbind(auth, id, 'vehicles', [...new Set(body.vehicle_ids ?? [])]);
      const leaving = [...new Set(body.user_ids ?? [])];
      const usersChanged = leaving.length ? await repo.unbindUsers(auth, id, leaving) : 0;
      const changed = devicesChanged + usersChanged;
      if (changed) await repo.touch(auth, id);
      if (devicesChanged) await endSessionsOf(members);
      else if (usersChanged) await endSessionsOf(leaving);
      return { changed };
    },
  };
}
