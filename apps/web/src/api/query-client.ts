import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error.ts';
import { reportError } from './error-funnel.ts';

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: ApiError;
    /** `silent: true` keeps a failure out of the error funnel (the caller shows or ignores it). */
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/** Only failures that might pass on a second try are retried: no answer, or a 5xx. */
function retry(count: number, err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return count < 2 && (err.kind === 'no-response' || err.status >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (!query.meta?.silent) reportError(err);
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (!mutation.meta?.silent && !mutation.options.onError) reportError(err);
      },
    }),
    defaultOptions: {
      queries: { retry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
