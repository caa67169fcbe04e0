import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { TestRoutine } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Drawer, Dropdown, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CanFramesTable } from '../../../components/can-frames-table.tsx';
import { testApi } from '../api/testmgmt.api.ts';
import { scriptListQuery, testKeys } from '../api/testmgmt.queries.ts';
import { fromStep, newStep, positiveSeconds, STEP_TYPES, type StepDraft, StepError, toStep } from './routine-steps.ts';

export interface RoutineEditorProps {
  tenantId: string;
  /** The routine to edit; null: a new one. */
  routine: TestRoutine | null;
  open: boolean;
  onClose: () => void;
}

/** A routine: name, description, ordered steps, the analysis script and its parameters. */
export function RoutineEditor({ tenantId, routine, open, onClose }: RoutineEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const scripts = useQuery({ ...scriptListQuery(tenantId, { current_page: 1, page_size: 100 }), enabled: open });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [scriptId, setScriptId] = useState<string | undefined>();
  const [params, setParams] = useState('{}');
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setProblem(null);
    setName(routine?.name ?? '');
    setDescription(routine?.description ?? '');
    setSteps(routine ? routine.steps.map(fromStep) : [newStep('collect')]);
    setScriptId(routine?.script_id);
    setParams(JSON.stringify(routine?.params ?? {}, null, 2));
  }, [open, routine]);

  const save = useMutation({
    mutationFn: (body: Parameters<typeof testApi.createRoutine>[1]) =>
      routine ? testApi.updateRoutine(tenantId, routine.id, body) : testApi.createRoutine(tenantId, body),
    onSuccess: () => {
      message.success(t('test.routine.saved'));
      void qc.invalidateQueries({ queryKey: testKeys.routines(tenantId) });
      void qc.invalidateQueries({ queryKey: testKeys.scripts(tenantId) });
      onClose();
    },
  });

  const submit = () => {
    setProblem(null);
    if (!name.trim()) return setProblem(t('test.routine.needName'));
    if (!scriptId) return setProblem(t('test.routine.needScript'));
    if (!steps.some((s) => s.type === 'collect')) return setProblem(t('test.routine.needCollect'));
    let parsedParams: Record<string, unknown>;
    try {
      const v = JSON.parse(params || '{}') as unknown;
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
      parsedParams = v as Record<string, unknown>;
    } catch {
      return setProblem(t('test.routine.badParams'));
    }
    try {
      const out = steps.map((s, i) => toStep(s, i));
      save.mutate({ name, description, steps: out, script_id: scriptId, params: parsedParams });
    } catch (e) {
      if (e instanceof StepError) setProblem(t('test.routine.badStep', { n: e.index + 1, what: t(`test.step.error.${e.field}`) }));
      else throw e;
    }
  };

  const patch = (key: number, p: Partial<StepDraft>) => setSteps((all) => all.map((s) => (s.key === key ? { ...s, ...p } : s)));
  const move = (i: number, by: number) =>
    setSteps((all) => {
      const next = [...all];
      const [s] = next.splice(i, 1);
      next.splice(i + by, 0, s);
      return next;
    });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={Math.min(900, window.innerWidth - 60)}
      destroyOnHidden
      title={routine ? t('test.routine.edit', { name: routine.name }) : t('test.routine.new')}
      extra={
        <Button type="primary" onClick={submit} loading={save.isPending} data-testid="routine-save">
          {t('test.action.save')}
        </Button>
      }
    >
      <Form layout="vertical" component="div">
        <Form.Item label={t('test.field.name')} required>
          <Input value={name} maxLength={64} onChange={(e) => setName(e.target.value)} data-testid="routine-name" />
        </Form.Item>
        <Form.Item label={t('test.field.description')}>
          <Input.TextArea value={description} maxLength={500} rows={2} onChange={(e) => setDescription(e.target.value)} />
        </Form.Item>
        <Form.Item label={t('test.routine.steps')} required>
          <Space orientation="vertical" style={{ width: '100%' }}>
            {steps.map((s, i) => (
              <Card
                key={s.key}
                size="small"
                data-testid="routine-step"
                title={`${i + 1}. ${t(`test.step.${s.type}`)}`}
                extra={
                  <Space size={0}>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                      aria-label={t('test.step.up')}
                    />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={i === steps.length - 1}
                      onClick={() => move(i, 1)}
                      aria-label={t('test.step.down')}
                    />
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => setSteps((all) => all.filter((x) => x.key !== s.key))}
                      aria-label={t('test.action.delete')}
                    />
                  </Space>
                }
              >
                <StepFields step={s} onChange={(p) => patch(s.key, p)} />
              </Card>
            ))}
            <Dropdown
              menu={{
                items: STEP_TYPES.map((type) => ({ key: type, label: t(`test.step.${type}`) })),
                onClick: ({ key }) => setSteps((all) => [...all, newStep(key as StepDraft['type'])]),
              }}
            >
              <Button icon={<PlusOutlined />} data-testid="routine-add-step">
                {t('test.routine.addStep')}
              </Button>
            </Dropdown>
          </Space>
        </Form.Item>
        <Form.Item label={t('test.routine.script')} required>
          <Select
            value={scriptId}
            onChange={setScriptId}
            showSearch
            optionFilterProp="label"
            loading={scripts.isFetching}
            data-testid="routine-script"
            options={(scripts.data?.list ?? []).map((s) => ({ value: s.id, label: `${s.name} (v${s.version})` }))}
          />
        </Form.Item>
        <Form.Item label={t('test.routine.params')} help={t('test.routine.paramsHelp')}>
          <Input.TextArea
            value={params}
            rows={4}
            className="lh-mono"
            onChange={(e) => setParams(e.target.value)}
            data-testid="routine-params"
          />
        </Form.Item>
      </Form>
      {problem && <Alert type="error" showIcon title={problem} data-testid="routine-problem" />}
    </Drawer>
  );
}

function StepFields({ step: s, onChange }: { step: StepDraft; onChange: (p: Partial<StepDraft>) => void }) {
  const { t } = useTranslation();
  const seconds = (
    <Form.Item
      label={t('test.step.seconds')}
      required
      validateStatus={positiveSeconds(s.seconds) ? undefined : 'error'}
      help={positiveSeconds(s.seconds) ? undefined : t('test.step.error.seconds')}
      style={{ marginBottom: 8 }}
    >
      <InputNumber
        min={1}
        max={3600}
        precision={0}
        value={s.seconds}
        onChange={(v) => onChange({ seconds: v })}
        data-testid="step-seconds"
      />
    </Form.Item>
  );
  switch (s.type) {
    case 'wait':
      return seconds;
    case 'collect':
      return (
        <>
          {seconds}
          <Space wrap align="start">
            <Form.Item label={t('test.step.channels')} style={{ marginBottom: 0, minWidth: 180 }}>
              <Select
                mode="multiple"
                allowClear
                placeholder={t('test.step.all')}
                value={s.channels}
                onChange={(v) => onChange({ channels: v })}
                options={Array.from({ length: 16 }, (_, i) => ({ value: i, label: `CAN${i + 1}` }))}
              />
            </Form.Item>
            <Form.Item label={t('test.step.ids')} style={{ marginBottom: 0, minWidth: 200 }}>
              <Select
                mode="tags"
                placeholder={t('test.step.all')}
                value={s.ids}
                onChange={(v) => onChange({ ids: v })}
                tokenSeparators={[',', ' ']}
              />
            </Form.Item>
            <Form.Item label={t('test.step.signals')} style={{ marginBottom: 0, minWidth: 240 }}>
              <Select
                mode="tags"
                placeholder={t('test.step.signalsHint')}
                value={s.signals}
                onChange={(v) => onChange({ signals: v })}
                tokenSeparators={[',']}
                data-testid="step-signals"
              />
            </Form.Item>
          </Space>
        </>
      );
    case 'send_can':
      return (
        <Form.Item label={t('test.step.frames')} style={{ marginBottom: 0 }}>
          <div data-testid="step-frames">
            <CanFramesTable rows={s.frames} onChange={(frames) => onChange({ frames })} />
          </div>
        </Form.Item>
      );
    case 'command':
      return (
        <>
          <Form.Item label={t('test.step.operation')} style={{ marginBottom: 8 }}>
            <Input value={s.operation} onChange={(e) => onChange({ operation: e.target.value })} placeholder="common_fn.…" />
          </Form.Item>
          <Form.Item label={t('test.step.operationParams')} style={{ marginBottom: 0 }}>
            <Input.TextArea rows={3} className="lh-mono" value={s.json} onChange={(e) => onChange({ json: e.target.value })} />
          </Form.Item>
        </>
      );
    case 'config':
      return (
        <Form.Item label={t('test.step.configJson')} style={{ marginBottom: 0 }}>
          <Typography.Text type="secondary">{t('test.step.configHelp')}</Typography.Text>
          <Input.TextArea rows={6} className="lh-mono" value={s.json} onChange={(e) => onChange({ json: e.target.value })} />
        </Form.Item>
      );
  }
}
