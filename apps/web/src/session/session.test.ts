import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { selfDetailKey, sessionKeys } from './session.queries.ts';
import { endSession, forgetAccountData } from './session.ts';

function cacheOfAnAccount(): QueryClient {
  const qc = new QueryClient();
  qc.setQueryData(sessionKeys.globalConfig(), { name: 'console' });
  qc.setQueryData(sessionKeys.self(), { id: 'u1' });
  qc.setQueryData(selfDetailKey, { id: 'u1', mobile: '13800000000' });
  // Keys of features, outside the session's own.
  qc.setQueryData(['things', 'list', { tenant: 't1' }], { list: [{ id: 'd1' }] });
  qc.setQueryData(['ecu', 'files', 'e1'], []);
  return qc;
}

describe('a session ending or starting', () => {
  it('leaves no data of the last account in the cache, only the pre-login configuration', async () => {
    const qc = cacheOfAnAccount();
    await endSession(qc);
    expect(
      qc
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey),
    ).toEqual([sessionKeys.globalConfig()]);
    expect(qc.getQueryData(sessionKeys.globalConfig())).toEqual({ name: 'console' });
  });

  it('is the same forgetting at login, whatever key a feature used', () => {
    const qc = cacheOfAnAccount();
    forgetAccountData(qc);
    expect(qc.getQueryData(['things', 'list', { tenant: 't1' }])).toBeUndefined();
    expect(qc.getQueryData(selfDetailKey)).toBeUndefined();
    expect(qc.getQueryCache().getAll()).toHaveLength(1);
  });
});
