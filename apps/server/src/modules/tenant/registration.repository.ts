import type { RawSql } from '../../db/client.ts';

export interface NewTenant {
  name: string;
  tenantType: unknown;
  organizationName: string | null;
  mobile: string;
  email: string | null;
  address: string | null;
  country: string | null;
  province: string | null;
  city: string | null;
  industry: string | null;
  description: string | null;
  status: number;
  platform: number;
  merchantId: unknown;
}

export interface NewManager {
  username: string;
  mobile: string;
  areaCode: string;
  email: string | null;
  passwordHash: string;
  description: string | null;
  department: string | null;
  gender: string;
  job: string | null;
}

/** Self-registration: a tenant and its manager. */
export function registrationRepository(raw: RawSql) {
  return {
    /** Both rows in one transaction; throws the driver's 23505 when the name, mobile or e-mail is taken. */
    async insertTenantWithManager(t: NewTenant, u: NewManager): Promise<{ tenant_id: string; user_id: string }> {
      return raw.transaction(async (tx) => {
        const tr = await tx.query<{ id: string }>(
          `insert into tenants (name, tenant_type, organization_name, mobile, email, address, country, province, city, industry,
               description, status, audited, platform, merchant_id)
             values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,false,$13,$14) returning id`,
          [
            t.name,
            t.tenantType,
            t.organizationName,
            t.mobile,
            t.email,
            t.address,
            t.country,
            t.province,
            t.city,
            t.industry,
            t.description,
            t.status,
            t.platform,
            t.merchantId,
          ],
        );
        const tenantId = tr.rows[0].id;
        const ur = await tx.query<{ id: string }>(
          `insert into users (tenant_id, username, name, mobile, area_code, email, password_hash, is_manager, description,
               department, gender, job)
             values ($1,$2,$2,$3,$4,$5,$6,true,$7,$8,$9,$10) returning id`,
          [tenantId, u.username, u.mobile, u.areaCode, u.email, u.passwordHash, u.description, u.department, u.gender, u.job],
        );
        return { tenant_id: tenantId, user_id: ur.rows[0].id };
      });
    },
  };
}
