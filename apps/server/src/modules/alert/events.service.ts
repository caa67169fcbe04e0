import type { AlertEvent, AlertEventHandle, AlertEventQuery } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';
import { notFound } from '../../lib/errors.ts';
import { requireDevice, restrictedUser } from '../things/things.access.ts';
import type { EventRow, EventsRepository } from './events.repository.ts';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toAlertEvent(r: EventRow): AlertEvent {
  return {
    id: r.id,
    tenant_id: r.tenant_id,
    rule_id: r.rule_id,
    rule_name: r.rule_name,
    things_id: r.things_id,
    things_name: r.things_name,
    level: r.level,
    source_type: r.source_type,
    event_data: r.event_data,
    handler: r.handler,
    handler_status: Number(r.handler_status),
    handler_description: r.handler_description,
    handled_at: iso(r.handled_at),
    created_at: iso(r.created_at) as string,
    recovered_at: iso(r.recovered_at),
  };
}

/** Alert events (spec §3 alert event, §7 alert-data-mgmt): list, handle, delete, delete all. */
export function eventsService(raw: RawSql, repo: EventsRepository) {
  async function visible(auth: Auth, id: string): Promise<EventRow> {
    const e = await repo.visible(auth, restrictedUser(auth), id);
    if (!e) throw notFound('Alert event not found');
    return e;
  }
  return {
    async list(auth: Auth, q: AlertEventQuery) {
      if (q.things_id) await requireDevice(raw, auth, q.things_id, 'read');
      const { rows, total } = await repo.page(auth, restrictedUser(auth), q);
      return { total, current_page: q.current_page, page_size: q.page_size, list: rows.map(toAlertEvent) };
    },

    async get(auth: Auth, id: string): Promise<AlertEvent> {
      return toAlertEvent(await visible(auth, id));
    },

    async handle(auth: Auth, id: string, h: AlertEventHandle & { handler_description: string }): Promise<AlertEvent> {
      const e = await visible(auth, id);
      await requireDevice(raw, auth, e.things_id, 'write');
      await repo.handle(auth, id, { handler: h.handler ?? auth.username, status: h.handler_status, description: h.handler_description });
      return toAlertEvent((await repo.byId(auth.tenantId, id)) as EventRow);
    },

    async remove(auth: Auth, id: string): Promise<void> {
      const e = await visible(auth, id);
      await requireDevice(raw, auth, e.things_id, 'write');
      await repo.remove(auth, id);
    },

    async removeAll(auth: Auth, q: Partial<AlertEventQuery>): Promise<{ deleted: number }> {
      if (q.things_id) await requireDevice(raw, auth, q.things_id, 'write');
      return { deleted: await repo.removeAll(auth, restrictedUser(auth), q) };
    },
  };
}
export type EventsService = ReturnType<typeof eventsService>;
