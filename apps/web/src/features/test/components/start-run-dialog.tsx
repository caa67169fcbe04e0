import { MAX_DRY_RUN_MS, type TestRoutine } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, type ButtonProps, DatePicker, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceListQuery } from '../../../api/things.queries.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { testKeys } from '../api/testmgmt.queries.ts';

export interface StartRunDialogProps {
  tenantId: string;
  routine: TestRoutine | null;
  onClose: () => void;
  onStarted: () => void;
}

/**
 * Starts a routine on one or several of the tenant's devices, or on a device group (one run per member
 * the user may read), or a dry run over a range of their history.
 */
export function StartRunDialog({ tenantId, routine, onClose, onStarted }: StartRunDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const devices = useQuery({
    ...deviceListQuery(tenantId, { current_page: 1, page_size: 100, keyword: keyword || undefined }),
    enabled: routine !== null,
    refetchInterval: false,
  });
  const [things, setThings] = useState<string[]>([]);
  // Devices picked one by one, or a device group (offered when the user may list groups).
  const canGroups = can('group:group:query');
  const [target, setTarget] = useState<'devices' | 'group'>('devices');
  const [groupKeyword, setGroupKeyword] = useState('');
  const [groupId, setGroupId] = useState<string | null>(null);
  const groups = useQuery({
    queryKey: ['test', 'start-run', 'groups', tenantId, groupKeyword],
    queryFn: ({ signal }) => testApi.groups(tenantId, groupKeyword || undefined, signal),
    enabled: routine !== null && canGroups && target === 'group',
  });
  // A sub-user with read access may dry-run only; a real run needs the execute key and device write access (the server decides).
  const [dry, setDry] = useState(false);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(1, 'hour'), dayjs()]);

  // This start's parameters: the routine's, to be changed here; they go over the routine's own.
  const [paramsText, setParamsText] = useState('{}');

  useEffect(() => {
    if (routine) {
      setThings([]);
      setTarget('devices');
      setGroupId(null);
      setDry(false);
      setRange([dayjs().subtract(1, 'hour'), dayjs()]);
      setParamsText(JSON.stringify(routine.params ?? {}, null, 2));
    }
  }, [routine]);

  const params = parseParams(paramsText);

  const span = range[1].valueOf() - range[0].valueOf();
  const rangeProblem = dry && (span <= 0 ? t('test.run.rangeOrder') : span > MAX_DRY_RUN_MS ? t('test.run.rangeTooLong') : null);

  const start = useMutation({
    mutationFn: () =>
      testApi.startRuns(tenantId, {
        routine_id: (routine as TestRoutine).id,
        ...(target === 'group' && groupId ? { group_id: groupId } : { things_ids: things }),
        dry_run: dry ? { begin_time: range[0].valueOf(), end_time: range[1].valueOf() } : undefined,
        params: params ?? undefined,
      }),
    onSuccess: (r) => {
      message.success(t('test.run.started', { count: r.runs.length }));
      void qc.invalidateQueries({ queryKey: testKeys.runs(tenantId) });
      onStarted();
    },
  });

  return (
    <Modal
      open={routine !== null}
      onCancel={onClose}
      title={t('test.run.startTitle', { name: routine?.name ?? '' })}
      okText={dry ? t('test.run.startDry') : t('test.run.start')}
      okButtonProps={
        {
          disabled: (target === 'group' ? !groupId : !things.length) || Boolean(rangeProblem) || !params || !can('test-mgmt:run:execute'),
          'data-testid': 'run-start-ok',
        } as ButtonProps
      }
      confirmLoading={start.isPending}
      onOk={() => start.mutate()}
      destroyOnHidden
      width={560}
    >
      <Form layout="vertical" component="div">
        {canGroups && (
          <Form.Item label={t('test.run.target')}>
            <Radio.Group
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              optionType="button"
              data-testid="run-target"
              options={[
                { value: 'devices', label: t('test.run.targetDevices') },
                { value: 'group', label: t('test.run.targetGroup') },
              ]}
            />
          </Form.Item>
        )}
        {target === 'group' ? (
          <Form.Item label={t('test.run.group')} help={t('test.run.groupHelp')} required>
            <Select
              showSearch
              filterOption={false}
              onSearch={setGroupKeyword}
              value={groupId}
              onChange={setGroupId}
              loading={groups.isFetching}
              data-testid="run-group"
              placeholder={t('test.run.groupHint')}
              options={(groups.data?.list ?? []).map((g) => ({
                value: g.id,
                label: t('test.run.groupOption', { name: g.name, count: g.things_count }),
              }))}
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('test.run.devices')} required>
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={setKeyword}
              value={things}
              onChange={setThings}
              loading={devices.isFetching}
              data-testid="run-devices"
              placeholder={t('test.run.devicesHint')}
              options={(devices.data?.list ?? []).map((d) => ({ value: d.id, label: d.name }))}
            />
          </Form.Item>
        )}
        <Form.Item label={t('test.run.dry')} help={t('test.run.dryHelp')}>
          <Switch checked={dry} onChange={setDry} data-testid="run-dry" />
        </Form.Item>
        {dry && (
          <Form.Item label={t('test.run.range')} validateStatus={rangeProblem ? 'error' : undefined} help={rangeProblem || undefined}>
            <DatePicker.RangePicker
              showTime
              value={range}
              allowClear={false}
              onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
              data-testid="run-range"
            />
          </Form.Item>
        )}
        <Form.Item
          label={t('test.run.params')}
          validateStatus={params ? undefined : 'error'}
          help={params ? t('test.run.paramsHelp') : t('test.routine.badParams')}
        >
          <Input.TextArea
            value={paramsText}
            rows={3}
            className="lh-mono"
            onChange={(e) => setParamsText(e.target.value)}
            data-testid="run-params"
          />
        </Form.Item>
        {!dry && routine && <Alert type="info" showIcon title={t('test.run.realHelp', { seconds: routine.duration_seconds })} />}
      </Form>
    </Modal>
  );
}

/** The parameters typed for this start: a JSON object, or null when it is not one. */
export function parseParams(text: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(text.trim() || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
