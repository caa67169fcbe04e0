import { ACTIVE_TEST_RUN_STATES, type TestRun, type TestRunState, type TestVerdict } from '@loggerhead/contract/schemas/testmgmt.ts';
import { Progress, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const STATE_COLOR: Record<TestRunState, string> = {
  queued: 'default',
  sending: 'processing',
  collecting: 'processing',
  analyzing: 'processing',
  analyzed: 'success',
  failed: 'error',
  cancelled: 'warning',
};
const VERDICT_COLOR: Record<TestVerdict, string> = { pass: 'success', fail: 'error', error: 'volcano' };

export function isActive(state: TestRunState): boolean {
  return ACTIVE_TEST_RUN_STATES.includes(state);
}

export function VerdictTag({ verdict }: { verdict: TestVerdict | null }) {
  const { t } = useTranslation();
  if (!verdict) return <span>--</span>;
  return (
    <Tag color={VERDICT_COLOR[verdict]} data-testid="run-verdict">
      {t(`test.verdict.${verdict}`)}
    </Tag>
  );
}

/**
 * A run's state as the user follows it: sending → collecting → analyzing → analyzed (or failed /
 * cancelled with the reason); while active, its progress and step.
 */
export function RunState({ run }: { run: Pick<TestRun, 'state' | 'progress' | 'step' | 'steps_total' | 'reason' | 'dry_run'> }) {
  const { t } = useTranslation();
  const active = isActive(run.state);
  return (
    <Space orientation="vertical" size={2} style={{ minWidth: 180 }} data-testid="run-state" data-state={run.state}>
      <Space size={4}>
        <Tag color={STATE_COLOR[run.state]} data-testid="run-state-tag">
          {t(`test.state.${run.state}`)}
        </Tag>
        {active && run.steps_total > 0 && !run.dry_run && (
          <Typography.Text type="secondary" data-testid="run-step">
            {t('test.run.step', { step: Math.min(run.step + 1, run.steps_total), total: run.steps_total })}
          </Typography.Text>
        )}
      </Space>
      {active && <Progress percent={run.progress} size="small" data-testid="run-progress" status="active" />}
      {(run.state === 'failed' || run.state === 'cancelled') && run.reason && (
        <Typography.Text type={run.state === 'failed' ? 'danger' : 'warning'} data-testid="run-reason">
          {run.reason}
        </Typography.Text>
      )}
    </Space>
  );
}
