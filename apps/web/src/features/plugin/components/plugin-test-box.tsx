import { Alert, Button, Card, Col, Input, Row, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/error-funnel.ts';
import { pluginApi } from '../api/plugin.api.ts';

/** A forwarded message as a transform plugin sees it: the example the box opens with. */
export const SAMPLE_INPUT = JSON.stringify(
  {
    id: '1',
    rule_id: '',
    tenant_id: '',
    things_id: '',
    third_things_id: 'LOGGER-01',
    kind: 'signals',
    ts: 1760000000000,
    data: { signals: [{ channel: 0, message: 'Vehicle', signal: 'speed', unit: 'km/h', ts: [1760000000000000], values: [72] }] },
  },
  null,
  2,
);

type Outcome = { kind: 'ok'; kept: boolean; output: unknown; ms: number } | { kind: 'error'; text: string };

/** The test-run box: an expression and an input JSON, run on the server within a plugin's bounds; the output shown. */
export function PluginTestBox({
  tenantId,
  expression,
  onExpression,
}: {
  tenantId: string;
  expression: string;
  onExpression: (e: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const [input, setInput] = useState(SAMPLE_INPUT);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const run = async () => {
    setOutcome(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (e) {
      setOutcome({ kind: 'error', text: t('plugin.test.badJson', { error: (e as Error).message }) });
      return;
    }
    setRunning(true);
    try {
      const r = await pluginApi.test(tenantId, expression, parsed);
      setOutcome({ kind: 'ok', kept: r.kept, output: r.output, ms: r.elapsed_ms });
    } catch (e) {
      setOutcome({ kind: 'error', text: errorText(e, t, (k) => i18n.exists(k)) });
    } finally {
      setRunning(false);
    }
  };

  return (
    <Card size="small" title={t('plugin.test.title')} data-testid="plugin-test-box">
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Typography.Text type="secondary">{t('plugin.test.expression')}</Typography.Text>
          <Input.TextArea
            rows={5}
            value={expression}
            onChange={(e) => onExpression(e.target.value)}
            spellCheck={false}
            style={{ fontFamily: 'monospace', marginBottom: 12 }}
            data-testid="plugin-test-expression"
          />
          <Typography.Text type="secondary">{t('plugin.test.input')}</Typography.Text>
          <Input.TextArea
            rows={10}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            spellCheck={false}
            style={{ fontFamily: 'monospace' }}
            data-testid="plugin-test-input"
          />
        </Col>
        <Col xs={24} md={12}>
          <Space style={{ marginBottom: 8 }}>
            <Button type="primary" onClick={run} loading={running} disabled={!expression.trim()} data-testid="plugin-test-run">
              {t('plugin.test.run')}
            </Button>
            {outcome?.kind === 'ok' && (
              <>
                <Tag color={outcome.kept ? 'green' : 'orange'}>{outcome.kept ? t('plugin.test.kept') : t('plugin.test.dropped')}</Tag>
                <Typography.Text type="secondary">{t('plugin.test.elapsed', { ms: outcome.ms })}</Typography.Text>
              </>
            )}
          </Space>
          {outcome?.kind === 'error' && <Alert type="error" showIcon message={outcome.text} data-testid="plugin-test-error" />}
          {outcome?.kind === 'ok' && (
            <pre
              data-testid="plugin-test-output"
              style={{ background: 'rgba(0,0,0,0.04)', padding: 12, maxHeight: 360, overflow: 'auto', margin: 0 }}
            >
              {outcome.kept ? JSON.stringify(outcome.output, null, 2) : t('plugin.test.nothing')}
            </pre>
          )}
        </Col>
      </Row>
    </Card>
  );
}
