import type { ScriptValidation } from '@loggerhead/contract/schemas/testmgmt.ts';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ValidationResultProps {
  result: ScriptValidation | null;
  /** The text changed since it was validated: the result may no longer hold. */
  stale?: boolean;
  /** A problem was clicked: the editor goes to its line. */
  onJump?: (line: number, column: number) => void;
}

/** What Validate answered: "compiles", or each compile error with its line and column. */
export function ValidationResult({ result, stale = false, onJump }: ValidationResultProps) {
  const { t } = useTranslation();
  if (!result) return null;
  if (result.valid)
    return <Alert type="success" showIcon data-testid="validation-ok" title={stale ? t('test.validate.okStale') : t('test.validate.ok')} />;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="validation-errors"
      title={t('test.validate.errors', { count: result.errors.length })}
      description={
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {result.errors.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced as a whole on each validation
            <li key={i} data-testid="validation-error">
              {e.line > 0 ? (
                <Typography.Link data-testid="validation-error-at" onClick={() => onJump?.(e.line, e.column)}>
                  {e.column > 0
                    ? t('test.validate.lineColumn', { line: e.line, column: e.column })
                    : t('test.validate.line', { line: e.line })}
                </Typography.Link>
              ) : null}
              {e.line > 0 ? ' ' : ''}
              <span className="lh-mono">{e.message}</span>
            </li>
          ))}
        </ul>
      }
    />
  );
}
