import { FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { DBC_MAX_BYTES } from '@loggerhead/contract/schemas/dbc.ts';
import { App, Button, Flex, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format.ts';
import { dbcFileProblem } from '../lib/names.ts';

/**
 * The file selector of spec §2/§5 for DBC files: one file, `.dbc` only, at most 10 MB. A wrong
 * file is refused here with the spec's "only supports format" / "file size smaller than" texts.
 * Works as a Form.Item control (value: the chosen File).
 */
export function DbcFileInput({
  value,
  onChange,
  testId = 'dbc-file-input',
}: {
  value?: File | null;
  onChange?: (f: File | null) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Flex align="center" gap={8} wrap>
      <input
        ref={input}
        type="file"
        accept=".dbc"
        style={{ display: 'none' }}
        data-testid={testId}
        onChange={(e) => {
          const f = e.target.files?.[0] ?? null;
          e.target.value = '';
          if (!f) return;
          const problem = dbcFileProblem(f);
          if (problem === 'format') void message.error(t('dbc.file.onlyFormat', { format: '.dbc' }));
          else if (problem === 'size') void message.error(t('dbc.file.sizeSmaller', { size: formatBytes(DBC_MAX_BYTES) }));
          else onChange?.(f);
        }}
      />
      <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
        {value ? t('dbc.file.change') : t('dbc.file.choose')}
      </Button>
      {value ? (
        <Typography.Text data-testid="dbc-file-chosen">
          <FileTextOutlined /> {value.name} <Typography.Text type="secondary">({formatBytes(value.size)})</Typography.Text>
        </Typography.Text>
      ) : (
        <Typography.Text type="secondary">{t('dbc.file.hint', { size: formatBytes(DBC_MAX_BYTES) })}</Typography.Text>
      )}
    </Flex>
  );
}
