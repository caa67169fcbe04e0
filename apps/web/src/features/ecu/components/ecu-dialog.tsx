import type { Ecu, EcuCreate } from '@loggerhead/contract/schemas/ecu.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Radio, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ecuApi } from '../../../api/ecu.api.ts';
import { ecuFilesQuery, ecuKeys } from '../../../api/ecu.queries.ts';
import { parseAddress } from '../../../lib/uds-pdu.ts';

interface Values {
  name: string;
  frame_type: 'standard' | 'extended';
  physical_address: string;
  response_address: string;
  function_address?: string;
  dtc_file_id?: string | null;
  firmware_file_id?: string | null;
  unlock_file_id?: string | null;
}

const hex = (n: number | null | undefined) => (n === null || n === undefined ? undefined : n.toString(16).toUpperCase());

/** Create or edit an ECU (spec §3): name, addresses (standard ≤ 7FF, extended ≤ 1FFFFFFF), its fault-code, firmware and unlock files. */
export function EcuDialog({ tenantId, ecu, open, onClose }: { tenantId: string; ecu: Ecu | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const files = useQuery({ ...ecuFilesQuery(tenantId), enabled: open });
  const frameType = Form.useWatch('frame_type', form) ?? 'standard';

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (ecu)
      form.setFieldsValue({
        name: ecu.name,
        frame_type: ecu.frame_type,
        physical_address: hex(ecu.physical_address),
        response_address: hex(ecu.response_address),
        function_address: hex(ecu.function_address),
        dtc_file_id: ecu.dtc_file_id,
        firmware_file_id: ecu.firmware_file_id,
        unlock_file_id: ecu.unlock_file_id,
      });
  }, [open, ecu, form]);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const body: EcuCreate = {
        name: v.name.trim(),
        frame_type: v.frame_type,
        physical_address: parseAddress(v.physical_address, v.frame_type) as number,
        response_address: parseAddress(v.response_address, v.frame_type) as number,
        function_address: v.function_address ? parseAddress(v.function_address, v.frame_type) : null,
        dtc_file_id: v.dtc_file_id ?? null,
        firmware_file_id: v.firmware_file_id ?? null,
        unlock_file_id: v.unlock_file_id ?? null,
      };
      return ecu ? ecuApi.update(tenantId, ecu.id, body) : ecuApi.create(tenantId, body);
    },
    onSuccess: () => {
      message.success(t('ecu.saved'));
      client.invalidateQueries({ queryKey: ecuKeys.all });
      onClose();
    },
  });

  const addressRule = (required: boolean) => ({
    validator: (_r: unknown, v: string | undefined) => {
      if (!v) return required ? Promise.reject(t('ecu.required')) : Promise.resolve();
      return parseAddress(v, frameType) === null ? Promise.reject(t(`ecu.address.${frameType}`)) : Promise.resolve();
    },
  });
  const fileOptions = (type: string) =>
    (files.data ?? []).filter((f) => f.type === type).map((f) => ({ value: f.id, label: `${f.name} (${f.file_name})` }));

  return (
    <Modal
      open={open}
      title={ecu ? t('ecu.edit') : t('ecu.create')}
      onCancel={onClose}
      okButtonProps={{ loading: save.isPending }}
      onOk={() =>
        form.validateFields().then(
          (v) => save.mutate(v),
          () => undefined,
        )
      }
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ frame_type: 'standard' }}>
        <Form.Item
          name="name"
          label={t('ecu.name')}
          rules={[{ required: true, whitespace: true, message: t('ecu.required') }, { max: 64 }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="frame_type" label={t('ecu.frameType')}>
          <Radio.Group
            onChange={() => form.validateFields(['physical_address', 'response_address', 'function_address']).catch(() => undefined)}
          >
            <Radio value="standard">{t('ecu.frame.standard')}</Radio>
            <Radio value="extended">{t('ecu.frame.extended')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="physical_address" label={t('ecu.physical')} required rules={[addressRule(true)]}>
          <Input className="lh-mono" placeholder={frameType === 'extended' ? '18DA10F1' : '7E0'} />
        </Form.Item>
        <Form.Item name="response_address" label={t('ecu.response')} required rules={[addressRule(true)]}>
          <Input className="lh-mono" placeholder={frameType === 'extended' ? '18DAF110' : '7E8'} />
        </Form.Item>
        <Form.Item name="function_address" label={t('ecu.function')} rules={[addressRule(false)]}>
          <Input className="lh-mono" placeholder={frameType === 'extended' ? '18DB33F1' : '7DF'} />
        </Form.Item>
        <Form.Item name="dtc_file_id" label={t('ecu.dtcFile')}>
          <Select allowClear options={fileOptions('dtc')} loading={files.isPending} />
        </Form.Item>
        <Form.Item name="firmware_file_id" label={t('ecu.firmwareFile')}>
          <Select allowClear options={fileOptions('firmware')} loading={files.isPending} />
        </Form.Item>
        <Form.Item name="unlock_file_id" label={t('ecu.unlockFile')}>
          <Select allowClear options={fileOptions('unlock')} loading={files.isPending} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
