import type { LoginResponse } from '@loggerhead/contract/schemas/session.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { startSession } from '../../../session/session.ts';

export const HOME = '/Container/HomePage';

/**
 * Runs a login call, then loads the session and goes home (spec §4), or to the user's first page. Errors stay on
 * the login page: a pending-review account gets its dialog (`pendingReview`), the rest a translated line.
 */
export function useLogin() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [pendingReview, setPendingReview] = useState(false);

  const mutation = useMutation({
    meta: { silent: true },
    mutationFn: async ({ call, username }: { call: () => Promise<LoginResponse>; username: string }) => {
      const res = await call();
      return startSession(qc, res, username);
    },
    onMutate: () => setError(null),
    // The home page, or the user's first page when the home page is not theirs (never a 403 page).
    onSuccess: (landing) => navigate(landing, { replace: true }),
    onError: (e) => {
      if (e instanceof ApiError && e.code === 'iot-tenant.10016') {
        setPendingReview(true);
        return;
      }
      setError(errorText(e, t, (k) => i18n.exists(k)));
    },
  });

  return {
    login: (username: string, call: () => Promise<LoginResponse>) => mutation.mutate({ username, call }),
    pending: mutation.isPending,
    error,
    clearError: () => setError(null),
    /** The account is not reviewed yet: the page shows the dialog that says so. */
    pendingReview,
    closePendingReview: () => setPendingReview(false),
  };
}
