import type { Thing } from '@loggerhead/contract/schemas/things.ts';

/** What every device-details tab receives; a tab file's default export takes these props. */
export interface DeviceTabProps {
  thing: Thing;
  tenantId: string;
}
