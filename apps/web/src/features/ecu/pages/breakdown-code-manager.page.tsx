import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Input, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EcuFile } from '../../../api/ecu.api.ts';
import { faultCodesQuery } from '../../../api/ecu.queries.ts';
import { useSession } from '../../../session/use-session.ts';
import { EcuFiles } from '../components/ecu-files.tsx';

/** BreakdownCodeManager (spec §3): fault-code files (import, list, delete) and the codes with their names. */
export default function BreakdownCodeManagerPage() {
  const { t } = useTranslation();
  const { tenantId } = useSession();
  const tenant = tenantId ?? '';
  const [viewing, setViewing] = useState<EcuFile | null>(null);
  const [filter, setFilter] = useState('');
  const codes = useQuery(faultCodesQuery(tenant, viewing?.id ?? null));
  const shown = (codes.data ?? []).filter(
    (c) => !filter || c.code.toLowerCase().includes(filter.toLowerCase()) || c.name.toLowerCase().includes(filter.toLowerCase()),
  );
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={4}>{t('ecu.faultCodes.title')}</Typography.Title>
      <EcuFiles
        tenantId={tenant}
        type="dtc"
        title={t('ecu.faultCodes.files')}
        extraColumn={(f) => (
          <Button size="small" type="link" onClick={() => setViewing(f)}>
            {t('ecu.faultCodes.view')}
          </Button>
        )}
      />
      <Modal open={viewing !== null} title={viewing?.name} footer={null} width={720} onCancel={() => setViewing(null)} destroyOnHidden>
        <Input.Search allowClear placeholder={t('ecu.faultCodes.search')} onSearch={setFilter} style={{ marginBottom: 12 }} />
        <Table
          size="small"
          rowKey="code"
          loading={codes.isPending}
          dataSource={shown}
          pagination={{ pageSize: 10 }}
          columns={[
            { key: 'code', title: t('ecu.faultCodes.code'), width: 140, render: (_v, c) => <span className="lh-mono">{c.code}</span> },
            { key: 'name', title: t('ecu.faultCodes.name'), render: (_v, c) => c.name },
          ]}
        />
      </Modal>
    </Flex>
  );
}
