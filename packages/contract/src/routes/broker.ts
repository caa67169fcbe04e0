import { z } from 'zod';
import { defineRoute } from './define.ts';

/** What an external broker's HTTP authentication sends for a CONNECT (EMQX's `${clientid}`, `${username}`, `${password}`). */
export const BrokerAuthRequestSchema = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  password: z.string().max(256).default(''),
});
/** What an external broker's HTTP authorization sends for a PUBLISH or SUBSCRIBE. */
export const BrokerAclRequestSchema = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  topic: z.string().max(1024),
  action: z.enum(['publish', 'subscribe']),
});
/** EMQX's answer format: `ignore` leaves the decision to the broker's next source (the servers' own account). */
export const BrokerVerdictSchema = z.object({ result: z.enum(['allow', 'deny', 'ignore']), is_superuser: z.boolean().optional() });
export type BrokerVerdict = z.infer<typeof BrokerVerdictSchema>;

/**
 * HTTP authentication and authorization for an external broker that asks an endpoint instead of
 * keeping accounts (EMQX): devices log in with their ID and things_key and reach only their own
 * topics. Called by the broker, not by people: the broker sends `Authorization: Bearer
 * <BROKER_AUTH_SECRET>`; without that setting the routes answer 404.
 */
export const BrokerRoutes = {
  auth: defineRoute({ method: 'POST', path: '/broker/auth', body: BrokerAuthRequestSchema, response: BrokerVerdictSchema, public: true }),
  acl: defineRoute({ method: 'POST', path: '/broker/acl', body: BrokerAclRequestSchema, response: BrokerVerdictSchema, public: true }),
};
