import { CAPACITY_FIELDS, type CapacityRequest, type WorkOrderDetail } from '@loggerhead/contract';
import type { Auth } from '../../lib/auth.ts';
import { ApiError, forbidden } from '../../lib/errors.ts';
import type { WorkOrderService } from '../workorder/workorder.service.ts';
import type { PackageService } from './package.service.ts';

/**
 * Spec §5 capacity form: the tenant manager asks for more; a work order of type
 * `capacity` carries the values to the system managers, who apply it
 * (docs/workorders.md).
 */
export function capacityService(packages: PackageService, workOrders: WorkOrderService) {
  return {
    async request(auth: Auth, tenantId: string, body: CapacityRequest): Promise<WorkOrderDetail> {
      if (auth.tenantId !== tenantId || !auth.isManager) throw forbidden();
      const cur = await packages.load(tenantId);
      const wanted: Record<string, unknown> = {};
      const below: ApiError['body'][] = [];
      let more = false;
      for (const f of CAPACITY_FIELDS) {
        const v = body[f];
        if (v === undefined) continue;
        const have = cur[f];
        if (have !== null && v < have) {
          below.push({ code: 'capacity.below-current', message: `${f}: at least ${have}`, field: f, details: { current: have } });
          continue;
        }
        wanted[f] = v;
        if (have !== null && v > have) more = true;
      }
      if (below.length) throw ApiError.many(400, below as { code: string; message: string }[]);
      if (body.special_storage !== undefined) {
        wanted.special_storage = body.special_storage;
        if (body.special_storage !== cur.special_storage) more = true;
      }
      if (body.quick_delete_things_list !== undefined) {
        const limit = (wanted.quick_delete_things_num as number | undefined) ?? cur.quick_delete_things_num;
        if (limit !== null && body.quick_delete_things_list.length > limit) {
          throw new ApiError(400, 'package.quick-delete-list-too-long', undefined, {
            field: 'quick_delete_things_list',
          });
        }
        wanted.quick_delete_things_list = body.quick_delete_things_list;
        more = true;
      }
      if (!more) throw new ApiError(400, 'capacity.unchanged');
      const summary = Object.entries(wanted)
        .filter(([k]) => k !== 'quick_delete_things_list')
        .map(([k, v]) => `${k}: ${cur[k as keyof typeof cur] ?? '-'} → ${v}`)
        .join('\n');
      return workOrders.createOrder(auth, {
        name: 'Capacity request',
        feedback_type: 'capacity',
        belong_function: 'capacity',
        phone: body.phone ?? '',
        description: body.description ? `${body.description}\n\n${summary}` : summary,
        images: [],
        capacity_request: wanted,
      });
    },
  };
}
export type CapacityService = ReturnType<typeof capacityService>;
