import { type TextLang, textLang } from '@loggerhead/contract';
import type { RawSql } from '../../db/client.ts';

export function customizationRepository(raw: RawSql) {
  return {
    /**
     * The language the server writes to the tenant's people in (e-mail, SMS, voice): its
     * `systemLanguage` customisation, which the console saves when a user logs in with another
     * one; zh when unset (the spec's default).
     */
    async language(tenantId: string): Promise<TextLang> {
      const { rows } = await raw.query<{ value: string }>(
        `select value from tenant_customizations where tenant_id = $1 and key = 'systemLanguage'`,
        [tenantId],
      );
      return textLang(rows[0]?.value);
    },

    async list(tenantId: string): Promise<{ key: string; value: string }[]> {
      const { rows } = await raw.query<{ key: string; value: string }>(
        'select key, value from tenant_customizations where tenant_id = $1 order by key',
        [tenantId],
      );
      return rows;
    },

    /** Upserts the given keys; an empty value removes the key (back to the default). */
    async put(tenantId: string, items: { key: string; value: string }[]) {
      await raw.transaction(async (tx) => {
        for (const { key, value } of items) {
          if (value === '') await tx.query('delete from tenant_customizations where tenant_id = $1 and key = $2', [tenantId, key]);
          else {
            await tx.query(
              `insert into tenant_customizations (tenant_id, key, value) values ($1, $2, $3)
               on conflict (tenant_id, key) do update set value = excluded.value`,
              [tenantId, key, value],
            );
          }
        }
      });
    },
  };
}
