import {
  type ForwardDestination,
  ForwardDestinationSchema,
  type ForwardRule,
  type ForwardRuleInputSchema,
  SECRET_MASK,
} from '@loggerhead/contract';
import type { z } from 'zod';
import { epochMs as ms } from '../../db/rows.ts';
import type { Auth } from '../../lib/auth.ts';
import { type Egress, EgressRefused } from '../../lib/egress.ts';
import { ApiError, badRequest, conflict } from '../../lib/errors.ts';
import { destinationAddress, destinationHosts } from './destinations.ts';
import { ForwardEngine } from './forward.engine.ts';
import { type ForwardRepository, type ForwardRuleRow, type RuleValues, SECRET_FIELDS } from './forward.repository.ts';

type RuleInput = z.output<typeof ForwardRuleInputSchema>;

export interface ForwardDeps {
  repo: ForwardRepository;
  /** The egress policy a destination's address must pass (lib/egress.ts). */
  egress: Egress;
  /** Package limit `push_rule`: throws 403 quota.limit-reached. */
  assertCanAdd: (auth: Auth, resource: 'push_rule', current: number) => Promise<void>;
  /** A rule changed (its selection and client are read again). */
  changed: (tenantId: string, ruleId: string) => void;
  maxPending: number;
}

/**
 * A path segment that looks like a credential (a webhook whose path is its key, as Slack's, Teams'
 * or a Zapier hook): 16 or more letters, digits and `-_.~`, with letters and digits both.
 */
const TOKEN_SEGMENT = /^(?=.*[A-Za-z])(?=.*\d)[\w.~-]{16,}$/;

/** A URL part decoded; as it stands when its percent-escapes are not valid (`%zz` passes `new URL`). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * A URL as a read shows it: its password, every query value (`?access_token=`, `?key=`, `?sig=`: a
 * query is where a webhook's credential most often is) and each path segment that looks like a token
 * masked. Scheme, host, port, user and the other path segments stay readable.
 */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return SECRET_MASK; // not a URL: nothing of it is shown
  }
  if (u.password) u.password = SECRET_MASK;
  // Every value, repeated names included (one mask per value, in their order).
  if (u.search) u.search = new URLSearchParams([...u.searchParams.keys()].map((k): [string, string] => [k, SECRET_MASK])).toString();
  u.pathname = u.pathname
    .split('/')
    .map((seg) => (TOKEN_SEGMENT.test(decoded(seg)) ? SECRET_MASK : seg))
    .join('/');
  return u.toString();
}

/**
 * The URL an update means: each masked part (password, query value, path segment) taken from the
 * stored URL, the rest as sent. A masked part the stored URL has not at the same place (another
 * number of path segments, a new query name) is kept as sent.
 */
export function unmaskUrl(next: string, stored: string): string {
  let u: URL;
  let s: URL;
  try {
    u = new URL(next);
    s = new URL(stored);
  } catch {
    return next === SECRET_MASK ? stored : next;
  }
  if (decoded(u.password) === SECRET_MASK) u.password = s.password;
  // The n-th value of a name takes the stored URL's n-th value of that name; the order is kept.
  if ([...u.searchParams.values()].includes(SECRET_MASK)) {
    const seen = new Map<string, number>();
    const entries = [...u.searchParams].map(([k, v]): [string, string] => {
      const i = seen.get(k) ?? 0;
      seen.set(k, i + 1);
      const old = s.searchParams.getAll(k)[i];
      return [k, v === SECRET_MASK && old !== undefined ? old : v];
    });
    u.search = new URLSearchParams(entries).toString();
  }
  const segs = u.pathname.split('/');
  const oldSegs = s.pathname.split('/');
  if (segs.length === oldSegs.length) u.pathname = segs.map((seg, i) => (decoded(seg) === SECRET_MASK ? oldSegs[i] : seg)).join('/');
  return u.toString();
}

/** A destination as a read shows it: secrets, header values and a URL's credentials masked. */
export function maskDestination(d: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...d };
  for (const f of SECRET_FIELDS) if (typeof out[f] === 'string' && out[f]) out[f] = SECRET_MASK;
  if (out.headers && typeof out.headers === 'object')
    out.headers = Object.fromEntries(Object.keys(out.headers as object).map((k) => [k, SECRET_MASK]));
  if (typeof out.url === 'string') out.url = maskUrl(out.url);
  return out;
}

/**
 * An update's destination with every masked value taken from the stored one (same kind only). The
 * stored credentials go to the stored address only: a destination whose scheme, host or port (or
 * Kafka brokers) changed and that still carries a mask is refused (`destination.secret-address-changed`),
 * so that neither a test nor a saved rule sends them somewhere else.
 */
export function unmaskDestination(next: ForwardDestination, stored: Record<string, unknown> | null): ForwardDestination {
  if (!stored || stored.kind !== next.kind) return next;
  if (destinationAddress(next) !== destinationAddress(stored) && JSON.stringify(next).includes(SECRET_MASK))
    throw badRequest('destination.secret-address-changed');
  const out: Record<string, unknown> = { ...next };
  for (const f of SECRET_FIELDS) if (out[f] === SECRET_MASK) out[f] = stored[f];
  if (out.headers && typeof out.headers === 'object') {
    const old = (stored.headers ?? {}) as Record<string, string>;
    out.headers = Object.fromEntries(
      Object.entries(out.headers as Record<string, string>).map(([k, v]) => [k, v === SECRET_MASK ? old[k] : v]),
    );
  }
  if (typeof out.url === 'string' && typeof stored.url === 'string') out.url = unmaskUrl(out.url, stored.url);
  return ForwardDestinationSchema.parse(out);
}

/**
 * Refuses (400 destination.address-refused) a destination whose address the egress policy refuses,
 * a name resolving to such an address included. A name that does not resolve now is let through: the
 * connection checks it again when it is made.
 */
export async function assertAddressAllowed(egress: Egress, d: ForwardDestination): Promise<void> {
  for (const h of destinationHosts(d))
    try {
      await egress.check(h);
    } catch (e) {
      if (e instanceof EgressRefused)
        throw new ApiError(400, 'destination.address-refused', e.message, {
          field: d.kind === 'kafka' ? 'destination.brokers' : 'destination.url',
          details: { host: e.host, address_class: e.addressClass },
        });
    }
}

const n = (v: string | number) => Number(v);

export function toRule(r: ForwardRuleRow, maxPending: number): ForwardRule {
  const delivered = n(r.delivered);
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    name: r.name,
    description: r.description,
    status: r.status,
    device_scope: r.device_scope,
    group_id: r.group_id,
    label_ids: r.label_ids,
    data_kinds: r.data_kinds as ForwardRule['data_kinds'],
    filter: r.filter,
    destination: maskDestination(r.destination),
    transform_plugin_id: r.transform_plugin_id,
    counters: {
      delivered,
      filtered: n(r.filtered),
      failed: n(r.failed),
      dead_lettered: n(r.dead_lettered),
      dropped: n(r.dropped),
      pending: r.pending,
      dead_letters: r.dead_letters,
      latency_ms: delivered ? Math.round((n(r.latency_sum_ms) / delivered) * 10) / 10 : null,
      last_latency_ms: r.last_latency_ms,
      last_error: r.last_error,
      last_error_at: ms(r.last_error_at),
      last_delivered_at: ms(r.last_delivered_at),
      backlog_alarm: r.pending >= maxPending,
    },
    created_at: ms(r.created_at) ?? 0,
    updated_at: ms(r.updated_at) ?? 0,
  };
}

const notFound = () => new ApiError(404, 'forward.not-found');
const isUniqueViolation = (e: unknown) => (e as { code?: string })?.code === '23505';

/** Things-forward rules of a tenant (spec §7 /alert-mgmt), their destination test and dead letters. */
export function forwardService(deps: ForwardDeps) {
  const { repo } = deps;

  async function row(auth: Auth, id: string): Promise<ForwardRuleRow> {
    const r = await repo.get(auth, id);
    if (!r) throw notFound();
    return r;
  }
  const get = async (auth: Auth, id: string) => toRule(await row(auth, id), deps.maxPending);

  async function values(auth: Auth, body: RuleInput, stored: Record<string, unknown> | null): Promise<RuleValues> {
    const group_id = body.device_scope === 'group' ? (body.group_id ?? null) : null;
    const label_ids = body.device_scope === 'labels' ? [...new Set(body.label_ids)] : [];
    if (group_id && !(await repo.groupExists(auth, group_id))) throw badRequest('forward.unknown-group', undefined, 'group_id');
    if (label_ids.length && (await repo.knownLabels(auth, label_ids)) !== label_ids.length)
      throw badRequest('forward.unknown-label', undefined, 'label_ids');
    const transform_plugin_id = body.transform_plugin_id ?? null;
    if (transform_plugin_id) {
      const type = await repo.pluginType(auth, transform_plugin_id);
      if (!type) throw new ApiError(404, 'plugin.not-found', undefined, { field: 'transform_plugin_id' });
      if (type !== 'transform') throw badRequest('plugin.wrong-type', 'A rule transforms with a transform plugin', 'transform_plugin_id');
    }
    const destination = unmaskDestination(body.destination, stored);
    await assertAddressAllowed(deps.egress, destination);
    return {
      name: body.name,
      description: body.description ?? null,
      device_scope: body.device_scope,
      group_id,
      label_ids,
      data_kinds: [...new Set(body.data_kinds)],
      filter: body.filter,
      destination_kind: destination.kind,
      destination,
      transform_plugin_id,
    };
  }

  return {
    async list(auth: Auth, q: { current_page: number; page_size: number; keyword?: string }) {
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.page(auth, q.keyword, (q.current_page - 1) * q.page_size, q.page_size);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map((r) => toRule(r, deps.maxPending)) };
    },

    get,

    async create(auth: Auth, body: RuleInput): Promise<ForwardRule> {
      if (await repo.byName(auth, body.name)) throw conflict('forward.duplicate', undefined, 'name');
      await deps.assertCanAdd(auth, 'push_rule', await repo.count(auth));
      let id: string;
      try {
        id = await repo.insert(auth, await values(auth, body, null));
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('forward.duplicate', undefined, 'name');
        throw e;
      }
      deps.changed(auth.tenantId, id);
      return get(auth, id);
    },

    async update(auth: Auth, id: string, body: RuleInput): Promise<ForwardRule> {
      const stored = await row(auth, id);
      const other = await repo.byName(auth, body.name);
      if (other && other.id !== id) throw conflict('forward.duplicate', undefined, 'name');
      try {
        if (!(await repo.update(auth, id, await values(auth, body, stored.destination)))) throw notFound();
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict('forward.duplicate', undefined, 'name');
        throw e;
      }
      deps.changed(auth.tenantId, id);
      // The user changed the rule, often to fix its destination: what waits is tried again now.
      await repo.retryNow(auth, id);
      return get(auth, id);
    },

    async setStatus(auth: Auth, id: string, status: number): Promise<ForwardRule> {
      if (!(await repo.setStatus(auth, id, status))) throw notFound();
      deps.changed(auth.tenantId, id);
      return get(auth, id);
    },

    async remove(auth: Auth, id: string): Promise<{ ok: true }> {
      if (!(await repo.remove(auth, id))) throw notFound();
      deps.changed(auth.tenantId, id);
      return { ok: true };
    },

    async test(auth: Auth, body: { destination: ForwardDestination; rule_id?: string }) {
      const stored = body.rule_id ? (await row(auth, body.rule_id)).destination : null;
      const destination = unmaskDestination(body.destination, stored);
      await assertAddressAllowed(deps.egress, destination);
      return ForwardEngine.test(destination, auth.tenantId, deps.egress);
    },

    async deadLetters(auth: Auth, id: string, q: { current_page: number; page_size: number }) {
      await row(auth, id);
      if (q.current_page * q.page_size > 10_000) throw badRequest('data.over-10000');
      const { rows, total } = await repo.deadLetters(auth, id, (q.current_page - 1) * q.page_size, q.page_size);
      return {
        total,
        current_page: q.current_page,
        page_size: q.page_size,
        list: rows.map((d) => ({ ...d, created_at: ms(d.created_at) ?? 0, failed_at: ms(d.failed_at) ?? 0 })),
      };
    },

    async replay(auth: Auth, id: string, ids: string[] | undefined) {
      await row(auth, id);
      return { count: await repo.replay(auth, id, ids ?? null, new Date()) };
    },

    async discard(auth: Auth, id: string, ids: string[] | undefined) {
      await row(auth, id);
      return { count: await repo.discard(auth, id, ids ?? null) };
    },
  };
}
export type ForwardService = ReturnType<typeof forwardService>;
