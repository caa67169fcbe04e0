import { useQuery } from '@tanstack/react-query';
import { getLoginName, getToken, tokenClaims } from '../api/session-storage.ts';
import { roleOf, visibleMenus } from './menus.ts';
import { customizationQuery, globalConfigQuery, privilegesQuery, selfQuery } from './session.queries.ts';

/** Service addresses of the global config's `link` JSON (spec §3). */
export interface ServiceLinks {
  lowCodeUrl?: string;
  userCenterUrl?: string;
  capacityUrl?: string;
  systemLanguage?: string;
  /** The platform's contact for the footer, where the tenant has not set its own. */
  footerCompany?: string;
  footerPhone?: string;
  footerEmail?: string;
  /** The header's help link (default: the built-in documentation). */
  helpUrl?: string;
}

export function parseLinks(link: string | undefined): ServiceLinks {
  if (!link) return {};
  try {
    const v = JSON.parse(link) as unknown;
    return v && typeof v === 'object' ? (v as ServiceLinks) : {};
  } catch {
    return {};
  }
}

/** Everything the shell knows about who is signed in; parts the server does not offer yet stay empty. */
export function useSession() {
  const signedIn = getToken() !== null;
  const config = useQuery(globalConfigQuery());
  const self = useQuery({ ...selfQuery(), enabled: signedIn });
  const privileges = useQuery({ ...privilegesQuery(), enabled: signedIn });
  const claims = tokenClaims();
  const tenantId = self.data?.tenant_id ?? claims?.tid ?? null;
  const customization = useQuery({ ...customizationQuery(tenantId), enabled: signedIn });
  const role = roleOf(self.data, privileges.data);
  return {
    config: config.data ?? null,
    self: self.data ?? null,
    privileges: privileges.data ?? null,
    customization: customization.data ?? {},
    /** The first answers are in (or failed): role and menus are final. */
    settled: !self.isPending && !privileges.isPending,
    role,
    tenantId,
    userId: self.data?.id ?? claims?.sub ?? null,
    displayName: self.data?.nick_name || self.data?.name || self.data?.username || getLoginName() || '',
    menus: visibleMenus({ role, globalMenu: config.data?.menu, boundMenus: privileges.data?.menus }),
    links: parseLinks(config.data?.link),
  };
}

export type SessionInfo = ReturnType<typeof useSession>;
