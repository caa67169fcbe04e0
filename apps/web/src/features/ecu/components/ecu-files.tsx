import { UploadOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { EcuFileType } from '@loggerhead/contract/schemas/ecu.ts';
import { MAX_ECU_FILE_BYTES } from '@loggerhead/contract/schemas/ecu.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Table, Upload } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type EcuFile, ecuApi } from '../../../api/ecu.api.ts';
import { ecuFilesQuery, ecuKeys } from '../../../api/ecu.queries.ts';
import { formatBytes, formatDateTime } from '../../../lib/format.ts';
import { mayCall } from '../../../session/can.ts';

/** ECU files of one type (fault-code lists, firmware packages, unlock files): upload, list, delete. */
export function EcuFiles({
  tenantId,
  type,
  title,
  extraColumn,
}: {
  tenantId: string;
  type: EcuFileType;
  title: string;
  extraColumn?: (f: EcuFile) => ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const files = useQuery(ecuFilesQuery(tenantId, type));
  const refresh = () => client.invalidateQueries({ queryKey: ecuKeys.all });
  const upload = useMutation({
    mutationFn: (f: File) => ecuApi.upload(tenantId, type, f),
    onSuccess: () => {
      message.success(t('ecu.files.uploaded'));
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => ecuApi.removeFile(tenantId, id), onSuccess: refresh });
  return (
    <Card
      size="small"
      title={title}
      data-testid={`ecu-files-${type}`}
      extra={
        mayCall(Routes.ecu.upload) && (
          <Upload
            showUploadList={false}
            accept={type === 'dtc' ? '.csv,.txt,.json' : undefined}
            beforeUpload={(f) => {
              if (f.size > MAX_ECU_FILE_BYTES) message.error(t('ecu.files.tooLarge'));
              else upload.mutate(f);
              return false;
            }}
          >
            <Button size="small" icon={<UploadOutlined />} loading={upload.isPending}>
              {t(type === 'dtc' ? 'ecu.files.import' : 'ecu.files.upload')}
            </Button>
          </Upload>
        )
      }
    >
      <Table<EcuFile>
        size="small"
        rowKey="id"
        loading={files.isPending}
        dataSource={files.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { key: 'name', title: t('ecu.files.name'), render: (_v, f) => f.name },
          { key: 'file', title: t('ecu.files.file'), render: (_v, f) => f.file_name },
          { key: 'size', title: t('ecu.files.size'), width: 110, render: (_v, f) => formatBytes(f.size) },
          ...(type === 'dtc'
            ? [{ key: 'entries', title: t('ecu.files.entries'), width: 100, render: (_v: unknown, f: EcuFile) => f.entries ?? '--' }]
            : []),
          { key: 'created', title: t('ecu.files.created'), width: 170, render: (_v, f) => formatDateTime(f.created_at) },
          {
            key: 'actions',
            width: 160,
            render: (_v, f) => (
              <>
                {extraColumn?.(f)}
                {mayCall(Routes.ecu.removeFile) && (
                  <Popconfirm title={t('ecu.files.deleteConfirm', { name: f.name })} onConfirm={() => remove.mutateAsync(f.id)}>
                    <Button size="small" type="link" danger>
                      {t('ecu.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}
