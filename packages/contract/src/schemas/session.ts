import { z } from 'zod';

/** Spec §3 login: username, password, type (1 password, 2 code). */
export const LoginRequestSchema = z.object({
  username: z.string().max(128),
  password: z.string().max(128),
  type: z.union([z.literal(1), z.literal(2)]).default(1),
  ujwt: z.string().optional(),
});
export type LoginRequest = z.infer<typeof LoginRequestSchema>;

export const LoginResponseSchema = z.object({
  token: z.string(),
  ujwt: z.string(),
  session_id: z.string(),
  expires_at: z.number().int(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const SelfUserSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  username: z.string(),
  nick_name: z.string().nullable(),
  avatar: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  isManager: z.boolean(),
  systemManager: z.boolean(),
});
export type SelfUser = z.infer<typeof SelfUserSchema>;

/** Spec §3 tenant permission info. */
export const PrivilegesSchema = z.object({
  tenant_manager: z.boolean(),
  system_manager: z.boolean(),
  apis: z.array(z.object({ name: z.string() })),
  menus: z.array(z.string()),
  /**
   * A read-only session (the experience account): `apis` holds only read keys, and the console keeps
   * checking them even for a manager, so that editing buttons are hidden.
   */
  read_only: z.boolean().optional(),
  /** A super-session: a system manager (`by`) sees this tenant's console; only in that case. */
  super_session: z.object({ by: z.string(), tenant_name: z.string(), read_only: z.boolean() }).optional(),
});
export type Privileges = z.infer<typeof PrivilegesSchema>;

/** Spec §3 global permission info (the global system configuration). */
export const GlobalConfigSchema = z.object({
  loginLogo: z.string(),
  cloudname: z.string(),
  homepageLogo: z.string(),
  menu: z.array(z.string()),
  link: z.string(),
  resourcePath: z.string(),
  isDebug: z.number().int(),
  experience: z.boolean(),
  oidc: z.object({ enabled: z.boolean(), name: z.string() }),
});
export type GlobalConfig = z.infer<typeof GlobalConfigSchema>;
