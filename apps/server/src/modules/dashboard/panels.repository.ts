import type { DbcMessageInfo, Panel, PanelSignal } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';
import type { Auth } from '../../lib/auth.ts';

interface PanelRow extends Omit<Panel, 'created_at' | 'updated_at'> {
  created_at: Date;
  updated_at: Date;
}

const COLS = `p.id, p.tenant_id, p.dashboard_id, p.name, p.description, p.chart_type, p.x_axis_type, p.panel_order,
  p.things_id, t.name as things_name, p.channel, p.signals, p.created_at, p.updated_at`;
const FROM = 'dashboard_panels p join things t on t.id = p.things_id';
/**
 * Sub-users see the panels of devices granted to them ($2 the user, null for managers); the
 * manager sees every panel of the tenant.
 */
const VISIBLE = `($2::uuid is null or exists (
  select 1 from user_device_access a where a.user_id = $2::uuid and a.things_id = p.things_id))`;

const toPanel = (r: PanelRow): Panel => ({
  ...r,
  panel_order: Number(r.panel_order),
  created_at: new Date(r.created_at).getTime(),
  updated_at: new Date(r.updated_at).getTime(),
});

export interface PanelFields {
  name: string;
  description: string;
  chart_type: Panel['chart_type'];
  x_axis_type: Panel['x_axis_type'];
  things_id: string;
  channel: number;
  signals: PanelSignal[];
}

/** SQL only; every query is scoped by the caller's tenant. */
export function panelsRepository(raw: RawSql) {
  return {
    /** The dashboard of the tenant, locked for the rest of the transaction (panel count, order). */
    async lockDashboard(auth: Auth, dashboardId: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from dashboards where tenant_id = $1 and id = $2 for update', [
        auth.tenantId,
        dashboardId,
      ]);
      return rows.length > 0;
    },

    async dashboardExists(auth: Auth, dashboardId: string): Promise<boolean> {
      const { rows } = await raw.query('select 1 from dashboards where tenant_id = $1 and id = $2', [auth.tenantId, dashboardId]);
      return rows.length > 0;
    },

    async list(auth: Auth, user: string | null, dashboardId: string): Promise<Panel[]> {
      const { rows } = await raw.query<PanelRow>(
        `select ${COLS} from ${FROM}
          where p.tenant_id = $1 and p.dashboard_id = $3 and ${VISIBLE}
          order by p.panel_order, p.created_at, p.id`,
        [auth.tenantId, user, dashboardId],
      );
      return rows.map(toPanel);
    },

    async get(auth: Auth, user: string | null, dashboardId: string, id: string): Promise<Panel | undefined> {
      const { rows } = await raw.query<PanelRow>(
        `select ${COLS} from ${FROM}
          where p.tenant_id = $1 and p.dashboard_id = $3 and p.id = $4 and ${VISIBLE}`,
        [auth.tenantId, user, dashboardId, id],
      );
      return rows[0] ? toPanel(rows[0]) : undefined;
    },

    async count(auth: Auth, dashboardId: string): Promise<number> {
      const { rows } = await raw.query<{ n: number }>(
        'select count(*)::int as n from dashboard_panels where tenant_id = $1 and dashboard_id = $2',
        [auth.tenantId, dashboardId],
      );
      return Number(rows[0].n);
    },

    async insert(auth: Auth, dashboardId: string, f: PanelFields): Promise<string> {
      const { rows } = await raw.query<{ id: string }>(
        `insert into dashboard_panels (tenant_id, dashboard_id, name, description, chart_type, x_axis_type, panel_order,
                                       things_id, channel, signals, created_by)
         select $1, $2, $3, $4, $5, $6,
                coalesce((select max(panel_order) + 1 from dashboard_panels where tenant_id = $1 and dashboard_id = $2), 0),
                $7, $8, $9::jsonb, $10
         returning id`,
        [
          auth.tenantId,
          dashboardId,
          f.name,
          f.description,
          f.chart_type,
          f.x_axis_type,
          f.things_id,
          f.channel,
          JSON.stringify(f.signals),
          auth.userId,
        ],
      );
      return rows[0].id;
    },

    async update(auth: Auth, dashboardId: string, id: string, f: PanelFields): Promise<boolean> {
      const { rows } = await raw.query(
        `update dashboard_panels set name = $4, description = $5, chart_type = $6, x_axis_type = $7, things_id = $8, channel = $9,
                signals = $10::jsonb, updated_at = now()
          where tenant_id = $1 and dashboard_id = $2 and id = $3 returning 1`,
        [
          auth.tenantId,
          dashboardId,
          id,
          f.name,
          f.description,
          f.chart_type,
          f.x_axis_type,
          f.things_id,
          f.channel,
          JSON.stringify(f.signals),
        ],
      );
      return rows.length > 0;
    },

    async remove(auth: Auth, dashboardId: string, id: string): Promise<boolean> {
      const { rows } = await raw.query('delete from dashboard_panels where tenant_id = $1 and dashboard_id = $2 and id = $3 returning 1', [
        auth.tenantId,
        dashboardId,
        id,
      ]);
      return rows.length > 0;
    },

    /** Current positions of the given panels of the dashboard. */
    async orders(auth: Auth, dashboardId: string, ids: string[]): Promise<Map<string, number>> {
      const { rows } = await raw.query<{ id: string; panel_order: number }>(
        'select id, panel_order from dashboard_panels where tenant_id = $1 and dashboard_id = $2 and id = any($3::uuid[])',
        [auth.tenantId, dashboardId, ids],
      );
      return new Map(rows.map((r) => [r.id, Number(r.panel_order)]));
    },

    async setOrders(auth: Auth, dashboardId: string, ids: string[], orders: number[]): Promise<void> {
      await raw.query(
        `update dashboard_panels p set panel_order = k.o, updated_at = now()
           from unnest($3::uuid[], $4::int[]) as k(id, o)
          where p.tenant_id = $1 and p.dashboard_id = $2 and p.id = k.id`,
        [auth.tenantId, dashboardId, ids, orders],
      );
    },

    /**
     * The DBC (and strategy) bound to a device channel: the messages view of the file and, when a
     * strategy is bound, the signals it keeps. Undefined when the channel is not bound.
     */
    async boundSignals(
      tenantId: string,
      thingsId: string,
      channel: number,
    ): Promise<{ summary: DbcMessageInfo[]; strategy: PanelSignal[] | null } | undefined> {
      const { rows } = await raw.query<{ summary: DbcMessageInfo[]; strategy: PanelSignal[] | null }>(
        `select f.summary, s.signals as strategy
           from channel_dbc_bindings b
           join dbc_files f on f.id = b.dbc_id
           left join signal_strategies s on s.id = b.strategy_id
          where b.tenant_id = $1 and b.things_id = $2 and b.channel = $3`,
        [tenantId, thingsId, channel],
      );
      return rows[0];
    },

    /** Unbinding a channel: its panels go (call inside the unbind's transaction). */
    async deleteForChannel(tenantId: string, thingsId: string, channel: number): Promise<number> {
      const { rows } = await raw.query(
        'delete from dashboard_panels where tenant_id = $1 and things_id = $2 and channel = $3 returning 1',
        [tenantId, thingsId, channel],
      );
      return rows.length;
    },
  };
}

export type PanelsRepository = ReturnType<typeof panelsRepository>;
