import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, List, Modal, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { thingsApi } from '../../../api/things.api.ts';
import { thingKeys } from '../../../api/things.queries.ts';

/** Batch import of devices from CSV (things import API); lines that fail are listed with the reason. */
export function ImportDevicesDialog({ open, tenantId, onClose }: { open: boolean; tenantId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const run = useMutation({
    mutationFn: (file: File) => thingsApi.importCsv(tenantId, file),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: thingKeys.devices() });
      if (r.created) void message.success(t('home.import.done', { count: r.created }));
    },
  });
  const result = run.data;
  return (
    <Modal
      open={open}
      title={t('home.import.title')}
      onCancel={() => {
        run.reset();
        onClose();
      }}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('home.import.text')}</Typography.Paragraph>
      <Upload
        accept=".csv,text/csv"
        maxCount={1}
        showUploadList={false}
        beforeUpload={(file) => {
          if (!/\.csv$/i.test(file.name)) {
            void message.error(t('home.import.onlyCsv'));
            return Upload.LIST_IGNORE;
          }
          run.mutate(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={run.isPending}>
          {t('home.import.choose')}
        </Button>
      </Upload>
      {result && (
        <div style={{ marginTop: 16 }}>
          <Alert type={result.errors.length ? 'warning' : 'success'} showIcon title={t('home.import.done', { count: result.created })} />
          {result.errors.length > 0 && (
            <List
              size="small"
              header={t('home.import.errors', { count: result.errors.length })}
              dataSource={result.errors}
              renderItem={(e) => (
                <List.Item>
                  <Typography.Text type="secondary">{t('home.import.line', { line: e.line })}</Typography.Text>&nbsp;
                  {i18n.exists(`errors.${e.code}`) ? t(`errors.${e.code}`) : e.message}
                </List.Item>
              )}
              style={{ marginTop: 8, maxHeight: 240, overflowY: 'auto' }}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
