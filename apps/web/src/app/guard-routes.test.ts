import { SessionRoutes } from '@loggerhead/contract/routes/control.ts';
import { describe, expect, it } from 'vitest';
import { MONITOR_SESSION } from './guard.ts';

describe('the route guard', () => {
  it('asks for a monitor session on the route the contract names', () => {
    expect(MONITOR_SESSION).toEqual({ method: SessionRoutes.monitor.method, path: SessionRoutes.monitor.path });
  });
});
