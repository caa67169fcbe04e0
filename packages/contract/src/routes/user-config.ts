import { PutUserConfigRequestSchema, UserConfigEntrySchema, UserConfigListSchema, UserConfigQuerySchema } from '../schemas/accounts.ts';
import { defineRoute } from './define.ts';

const path = '/tenant/users/self/configs';

/** The signed-in user's own settings, key by key (chosen table columns, saved curves; spec §3, §7 user-self config). */
export const UserConfigRoutes = {
  /** The entries of the comma-separated `keys` that exist. */
  get: defineRoute({
    method: 'GET',
    path,
    query: UserConfigQuerySchema,
    response: UserConfigListSchema,
    signedIn: true,
  }),
  put: defineRoute({
    method: 'PUT',
    path,
    body: PutUserConfigRequestSchema,
    response: UserConfigEntrySchema,
    signedIn: true,
  }),
};
