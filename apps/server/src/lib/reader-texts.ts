import { askedLang, SERVER_TEXTS, serverText, TEXT_REF_RE, type TextKey, type TextLang, UNIT_TEXTS, unitText } from '@loggerhead/contract';
import type { FastifyInstance } from 'fastify';

/** `"unit":"degC"` in a JSON body: a unit the server writes for a person. */
const UNIT_RE = /"unit":"([^"\\]{1,16})"/g;

/**
 * The body of a JSON answer with what the server wrote for a person in the reader's language
 * (decision 0178): every `{{text:KEY}}` a seeded row holds becomes the catalogue's text, and every
 * unit of the units table (`"unit":"degC"`) the reader's form of it. Texts are written into a JSON
 * string as they are (the catalogue's seeded texts hold no quote or backslash, a test checks it), so
 * a reference inside a JSON text stored in a string resolves too.
 */
export function inReaderLanguage(body: string, lang: TextLang): string {
  let out = body;
  if (out.includes('{{text:')) {
    out = out.replace(TEXT_REF_RE, (m, key: string) => (Object.hasOwn(SERVER_TEXTS, key) ? serverText(lang, key as TextKey) : m));
  }
  if (out.includes('"unit":"')) {
    out = out.replace(UNIT_RE, (m, unit: string) =>
      Object.hasOwn(UNIT_TEXTS, unit) ? `"unit":${JSON.stringify(unitText(lang, unit))}` : m,
    );
  }
  return out;
}

/**
 * Resolves seeded texts and units in every JSON answer, before it is compressed. The reader's
 * language is the one its console asks for (`Accept-Language`, sent on every call), else its
 * tenant's (`systemLanguage`), else zh.
 */
export function registerReaderTexts(app: FastifyInstance, tenantLanguage: (tenantId: string) => Promise<TextLang>) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (typeof payload !== 'string' || !(payload.includes('{{text:') || payload.includes('"unit":"'))) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const asked = askedLang(req.headers['accept-language']);
    const lang = asked ?? (req.auth ? await tenantLanguage(req.auth.tenantId).catch((): TextLang => 'zh') : 'zh');
    return inReaderLanguage(payload, lang);
  });
}
