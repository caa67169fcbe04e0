import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/api-error.ts';

export interface DbcParseProblem {
  line: number;
  col: number;
  reason: string;
}

/** The line/column details of a server `mapping.dbc-invalid` answer, if that is what the error is. */
export function parseProblemOf(err: unknown): DbcParseProblem | null {
  if (!(err instanceof ApiError)) return null;
  const first = err.errors[0];
  if (first?.code !== 'mapping.dbc-invalid') return null;
  const d = first.details as Partial<DbcParseProblem> | undefined;
  if (typeof d?.line === 'number' && typeof d.col === 'number') return { line: d.line, col: d.col, reason: String(d.reason ?? '') };
  // An older server names the place only in its message: "Line 3, column 7: …".
  const m = /Line (\d+), column (\d+):\s*(.*)/.exec(first.message);
  return m ? { line: Number(m[1]), col: Number(m[2]), reason: m[3] } : null;
}

/** Where a DBC file failed to parse: line, column and the parser's reason. */
export function DbcParseError({ problem }: { problem: DbcParseProblem }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      data-testid="dbc-parse-error"
      message={t('errors.mapping.dbc-invalid')}
      description={t('dbc.parse.at', { line: problem.line, col: problem.col, reason: problem.reason })}
    />
  );
}
