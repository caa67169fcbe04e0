import type { Plugin, PluginInput, PluginType } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { compilePlugin } from './plugin.engine.ts';
import { type PluginRow, pluginRepository } from './plugin.repository.ts';

const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

export function toPlugin(r: PluginRow): Plugin {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    expression: r.expression,
    description: r.description,
    header: r.header,
    file_extension: r.file_extension,
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

const notFound = () => ApiError.of('plugin.not-found');

/**
 * Data transform and export plugins (docs/decisions/0160-plugins-as-jsonata.md): an expression is
 * compiled before it is stored (plugin.bad-expression otherwise), and a test run evaluates one within
 * the bounds every use has.
 */
export function pluginService(deps: { raw: RawSql }) {
  const repo = pluginRepository(deps.raw);
  const fields = (b: PluginInput) => {
    compilePlugin(b.expression);
    return {
      name: b.name,
      type: b.type,
      expression: b.expression,
      description: b.description ?? null,
      header: b.type === 'export' ? (b.header ?? null) : null,
      file_extension: b.type === 'export' ? (b.file_extension ?? null) : null,
    };
  };

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; type?: PluginType; keyword?: string }) {
      const { total, rows } = await repo.list(auth.tenantId, {
        type: q.type,
        keyword: q.keyword,
        limit: q.page_size,
        offset: (q.current_page - 1) * q.page_size,
      });
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toPlugin) };
    },
    async get(auth: Auth, id: string): Promise<Plugin> {
      const r = await repo.get(auth.tenantId, id);
      if (!r) throw notFound();
      return toPlugin(r);
    },
    async create(auth: Auth, body: PluginInput): Promise<Plugin> {
      const f = fields(body);
      try {
        return toPlugin(await repo.insert(auth.tenantId, auth.userId, f));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('plugin.duplicate', undefined, 'name');
        throw e;
      }
    },
    async update(auth: Auth, id: string, body: PluginInput): Promise<Plugin> {
      const f = fields(body);
      const old = await repo.get(auth.tenantId, id);
      if (!old) throw notFound();
      if (old.type !== f.type && (await repo.usedBy(auth.tenantId, id)).length)
        throw badRequest('plugin.wrong-type', 'A forwarding rule uses this transform plugin: its type cannot change', 'type');
      try {
        const r = await repo.update(auth.tenantId, id, f);
        if (!r) throw notFound();
        return toPlugin(r);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('plugin.duplicate', undefined, 'name');
        throw e;
      }
    },
    async remove(auth: Auth, id: string) {
      const used = await repo.usedBy(auth.tenantId, id);
      if (used.length)
        throw new ApiError(409, 'plugin.in-use', `Used by the forwarding rule(s): ${used.join(', ')}`, { details: { rules: used } });
      if (!(await repo.remove(auth.tenantId, id))) throw notFound();
      return { ok: true as const };
    },
    async test(auth: Auth, body: { expression: string; input?: unknown }) {
      const c = compilePlugin(body.expression);
      const t0 = performance.now();
      const r = await c.run(body.input, auth.tenantId);
      return { ...r, elapsed_ms: Math.round((performance.now() - t0) * 100) / 100 };
    },
    /** A plugin of the tenant of this type, or the error a rule or export names it with. */
    async require(tenantId: string, id: string, type: PluginType): Promise<PluginRow> {
      const r = await repo.get(tenantId, id);
      if (!r) throw ApiError.of('plugin.not-found');
      if (r.type !== type) throw badRequest('plugin.wrong-type', `The plugin is not a ${type} plugin`);
      return r;
    },
  };
}
export type PluginService = ReturnType<typeof pluginService>;
