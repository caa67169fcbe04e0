import { KnownCodes } from '@loggerhead/contract/errors.ts';
import { describe, expect, it } from 'vitest';
import { reasonText } from './error-funnel.ts';
import errors from './i18n.ts';

describe('reasonText (why a long-running job ended)', () => {
  for (const lang of ['zh', 'en'] as const) {
    const cat = errors[lang];
    const t = (k: string) => cat[k] ?? k;
    const has = (k: string) => k in cat;

    it(`${lang}: a job interrupted by a server restart reads in the console's language`, () => {
      const shown = reasonText(KnownCodes['job.interrupted'], t, has);
      expect(shown).toBe(cat['errors.job.interrupted']);
      expect(shown).not.toBe('');
    });

    it(`${lang}: any other reason is shown as the server wrote it; none is empty`, () => {
      expect(reasonText('transfer: negative response 0x72 generalProgrammingFailure', t, has)).toBe(
        'transfer: negative response 0x72 generalProgrammingFailure',
      );
      expect(reasonText(null, t, has)).toBe('');
    });
  }

  it('the two languages differ for the restart reason', () => {
    expect(errors.zh['errors.job.interrupted']).not.toBe(errors.en['errors.job.interrupted']);
  });
});
