import { ArrowLeftOutlined } from '@ant-design/icons';
import { parseDbc } from '@loggerhead/can';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { DBC_DEFAULT_PROTOCOL, type DbcMessageInfo } from '@loggerhead/contract/schemas/dbc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Form, Input, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { dbcApi } from '../../../api/dbc.api.ts';
import { dbcKeys } from '../../../api/dbc.queries.ts';
import { errorText } from '../../../api/error-funnel.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { DbcFileInput } from '../components/dbc-file-input.tsx';
import { DbcMessagesView } from '../components/dbc-messages-view.tsx';
import { DbcParseError, type DbcParseProblem, parseProblemOf } from '../components/dbc-parse-error.tsx';
import { readDbcPreview } from '../lib/dbc-preview.ts';

interface Preview {
  messages: DbcMessageInfo[];
  warnings: DbcParseProblem[];
  problem: DbcParseProblem | null;
}

/**
 * /Container/DBCImportPage: pick a `.dbc` file, see its messages and signals (or where it fails to
 * parse) before anything is sent, name it, choose the protocol (default 2) and import it.
 * The server parses again on upload and has the last word.
 */
export default function DbcImportPage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { tenantId } = useSession();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [protocol, setProtocol] = useState<number>(DBC_DEFAULT_PROTOCOL);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [serverProblem, setServerProblem] = useState<DbcParseProblem | null>(null);
  const [general, setGeneral] = useState<string | null>(null);

  const choose = async (f: File | null) => {
    setFile(f);
    setServerProblem(null);
    setGeneral(null);
    if (!f) return setPreview(null);
    setName(f.name.replace(/\.dbc$/i, ''));
    setPreview(readDbcPreview(new Uint8Array(await f.arrayBuffer()), parseDbc));
  };

  const upload = useMutation({
    meta: { silent: true },
    mutationFn: () => dbcApi.upload(tenantId as string, file as File, { name: name.trim() || undefined, protocol }),
    onSuccess: (f) => {
      void message.success(t('dbc.upload.done', { name: f.name }));
      void qc.invalidateQueries({ queryKey: dbcKeys.all });
      navigate('/Container/DBCManager');
    },
    onError: (err) => {
      const p = parseProblemOf(err);
      setServerProblem(p);
      setGeneral(p ? null : errorText(err, t, (k) => i18n.exists(k)));
    },
  });

  const problem = serverProblem ?? preview?.problem ?? null;
  return (
    <Card
      variant="borderless"
      title={
        <Flex align="center" gap={8}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('dbc.import.back')}
            onClick={() => navigate('/Container/DBCManager')}
          />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('dbc.import.title')}
          </Typography.Title>
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('dbc.import.intro')}
        </Typography.Paragraph>
        <Form layout="inline" style={{ rowGap: 12 }}>
          <Form.Item label={t('dbc.upload.file')} required>
            <DbcFileInput value={file} onChange={(f) => void choose(f)} testId="dbc-import-file" />
          </Form.Item>
          <Form.Item label={t('dbc.upload.name')}>
            <Input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={128}
              style={{ width: 240 }}
              data-testid="dbc-import-name"
            />
          </Form.Item>
          <Form.Item label={t('dbc.upload.protocol')} required>
            <InputNumber value={protocol} min={0} max={255} precision={0} onChange={(v) => setProtocol(v ?? DBC_DEFAULT_PROTOCOL)} />
          </Form.Item>
          <Form.Item>
            {mayCall(Routes.mapping.uploadDbc) && (
              <Button
                type="primary"
                disabled={!file || Boolean(preview?.problem) || !tenantId}
                loading={upload.isPending}
                onClick={() => upload.mutate()}
                data-testid="dbc-import-submit"
              >
                {t('dbc.import.submit')}
              </Button>
            )}
          </Form.Item>
        </Form>
        {problem && <DbcParseError problem={problem} />}
        {general && <Alert type="error" showIcon message={general} />}
        {preview && !preview.problem && preview.warnings.length > 0 && (
          <Alert
            type="warning"
            showIcon
            message={t('dbc.import.warnings', { count: preview.warnings.length })}
            description={preview.warnings
              .slice(0, 5)
              .map((w) => t('dbc.parse.at', { line: w.line, col: w.col, reason: w.reason }))
              .join('; ')}
          />
        )}
        {preview && !preview.problem && <DbcMessagesView messages={preview.messages} />}
      </Flex>
    </Card>
  );
}
