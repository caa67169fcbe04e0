import type { FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/error-funnel.ts';
import { bodyText, type SpreadErrors, spreadErrors } from './server-field-errors.ts';

/**
 * Shows a failed call on a form (spec §8 "field by field"): errors naming a field of the
 * form go under that item, the rest into `general` (shown as one alert above the form).
 */
export function useServerErrors() {
  const { t, i18n } = useTranslation();
  const [general, setGeneral] = useState<string | null>(null);
  const has = useCallback((k: string) => i18n.exists(k), [i18n]);

  /** Spreads `err`; returns the spread so a caller can e.g. pick the step to go back to. */
  const spread = useCallback(
    (err: unknown, known: readonly string[], rename?: Record<string, string>): SpreadErrors => {
      const s = spreadErrors(err, known, rename);
      const text = s.general.length
        ? s.general.map((b) => bodyText(b, t, has)).join('; ')
        : s.fields.length
          ? null
          : errorText(err, t, has);
      setGeneral(text);
      return s;
    },
    [t, has],
  );

  /** Puts the field errors of a spread on the form (its items must be mounted). */
  const apply = useCallback(
    (form: FormInstance, s: SpreadErrors) => {
      form.setFields(s.fields.map((f) => ({ name: f.name, errors: f.codes.map((b) => bodyText(b, t, has)) })));
    },
    [t, has],
  );

  const show = useCallback(
    (form: FormInstance, err: unknown, known: readonly string[], rename?: Record<string, string>) => {
      const s = spread(err, known, rename);
      apply(form, s);
      return s;
    },
    [spread, apply],
  );

  const clear = useCallback(() => setGeneral(null), []);

  return { general, setGeneral, clear, spread, apply, show };
}
