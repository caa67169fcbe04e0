import type { TestRuntime } from '@loggerhead/contract/schemas/testmgmt.ts';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Says when the Groovy runtime cannot run scripts, and the one command that enables it. */
export function RuntimeNotice({ runtime }: { runtime: TestRuntime | undefined }) {
  const { t } = useTranslation();
  if (!runtime || runtime.state === 'available') return null;
  if (runtime.state === 'starting') return <Alert type="info" showIcon title={t('test.runtime.starting')} data-testid="runtime-notice" />;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="runtime-notice"
      title={t('test.runtime.unavailable')}
      description={
        <>
          {runtime.reason && <div>{runtime.reason}</div>}
          <div>
            {t('test.runtime.enable')}{' '}
            <Typography.Text code copyable data-testid="runtime-command">
              {runtime.enable_command}
            </Typography.Text>
          </div>
        </>
      }
    />
  );
}
