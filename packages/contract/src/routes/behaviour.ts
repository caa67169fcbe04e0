import {
  BehaviourAcceptedSchema,
  BehaviourBatchSchema,
  BehaviourSummaryQuerySchema,
  BehaviourSummarySchema,
} from '../schemas/behaviour.ts';
import { defineRoute } from './define.ts';

const base = '/out-wrapper/user-behaviours';

/** User behaviour (spec §7 /out-wrapper): the console's header clicks, and their summary for the system manager. */
export const BehaviourRoutes = {
  /** Any signed-in user posts its own clicks; the tenant and user come from the session. */
  record: defineRoute({
    method: 'POST',
    path: base,
    body: BehaviourBatchSchema,
    response: BehaviourAcceptedSchema,
    signedIn: true,
  }),
  summary: defineRoute({
    method: 'GET',
    path: `${base}/summary`,
    query: BehaviourSummaryQuerySchema,
    response: BehaviourSummarySchema,
    permission: 'out-wrapper:user-behaviour:query',
  }),
};
