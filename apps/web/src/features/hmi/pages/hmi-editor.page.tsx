import { SaveOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import {
  HMI_WIDGET_TYPES,
  type HmiCanvas,
  HmiScreenInputSchema,
  type HmiWidget,
  type HmiWidgetType,
} from '@loggerhead/contract/schemas/hmi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Dropdown, Empty, Input, InputNumber, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useSearchParams } from 'react-router';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';
import { HmiCanvasView } from '../components/hmi-canvas.tsx';
import { WidgetPanel } from '../components/widget-panel.tsx';
import { newWidget } from '../lib/canvas.ts';
import '../hmi.css';

interface Draft {
  name: string;
  description: string;
  canvas: HmiCanvas;
}

/**
 * An HMI screen's editor: add widgets, drag them on the grid and resize them by their corner, bind
 * each to a device's signal or property, set a button's action, and save. Opened from the screens
 * list with `?id=`.
 */
export default function HmiEditorPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { tenantId } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const id = params.get('id') ?? '';
  const screen = useQuery({
    queryKey: hmiKeys.screen(tenantId, id),
    queryFn: ({ signal }) => hmiApi.get(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    if (screen.data && !draft) setDraft({ name: screen.data.name, description: screen.data.description, canvas: screen.data.canvas });
  }, [screen.data, draft]);

  // Unsaved changes are not lost by leaving the page by mistake: within the console, or the tab.
  const blocker = useBlocker(dirty);
  const blocked = blocker.state === 'blocked';
  // biome-ignore lint/correctness/useExhaustiveDependencies: one question per blocked navigation, answered through that blocker.
  useEffect(() => {
    if (!blocked) return;
    modal.confirm({
      title: t('hmi.editor.leaveTitle'),
      content: t('hmi.editor.leaveText'),
      okText: t('hmi.editor.leave'),
      cancelText: t('common.action.cancel'),
      onOk: () => blocker.proceed?.(),
      onCancel: () => blocker.reset?.(),
    });
  }, [blocked]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const change = (fn: (d: Draft) => Draft) => {
    setDraft((d) => (d ? fn(d) : d));
    setDirty(true);
  };
  const patchWidget = (wid: string, p: Partial<HmiWidget>) =>
    change((d) => ({
      ...d,
      canvas: { ...d.canvas, widgets: d.canvas.widgets.map((w) => (w.id === wid ? ({ ...w, ...p } as HmiWidget) : w)) },
    }));
  const add = (type: HmiWidgetType) => {
    if (!draft) return;
    const w = newWidget(draft.canvas, type);
    change((d) => ({ ...d, canvas: { ...d.canvas, widgets: [...d.canvas.widgets, w] } }));
    setSelected(w.id);
  };

  const save = useMutation({
    mutationFn: (d: Draft) => hmiApi.update(tenantId as string, id, d),
    onSuccess: (s) => {
      void message.success(t('hmi.editor.saved'));
      setDirty(false);
      qc.setQueryData(hmiKeys.screen(tenantId, id), s);
      void qc.invalidateQueries({ queryKey: hmiKeys.all });
    },
  });
  const onSave = () => {
    if (!draft) return;
    // The contract's own check first: the first problem is named before anything is sent.
    const r = HmiScreenInputSchema.safeParse(draft);
    if (!r.success) {
      const issue = r.error.issues[0];
      const at = issue.path[0] === 'canvas' && issue.path[1] === 'widgets' ? draft.canvas.widgets[issue.path[2] as number]?.id : null;
      setProblem(at ? t('hmi.editor.widgetProblem', { id: at, problem: issue.message }) : issue.message);
      if (at) setSelected(at);
      return;
    }
    setProblem(null);
    save.mutate(draft);
  };

  if (!tenantId) return null;
  if (screen.isLoading || (screen.data && !draft)) return <Spin style={{ margin: 48 }} />;
  if (!draft) return <Empty description={t('hmi.editor.missing')} />;
  const sel = draft.canvas.widgets.find((w) => w.id === selected) ?? null;
  const editable = mayCall(Routes.hmi.update);

  return (
    <Card variant="borderless">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Space wrap>
          <Input
            value={draft.name}
            maxLength={64}
            onChange={(e) => change((d) => ({ ...d, name: e.target.value }))}
            aria-label={t('hmi.field.name')}
            data-testid="hmi-editor-name"
            style={{ width: 220 }}
          />
          <Input
            value={draft.description}
            maxLength={256}
            placeholder={t('hmi.field.description')}
            onChange={(e) => change((d) => ({ ...d, description: e.target.value }))}
            style={{ width: 260 }}
          />
          <InputNumber
            addonBefore={t('hmi.editor.rowHeight')}
            min={8}
            max={200}
            value={draft.canvas.row_height}
            onChange={(v) => v !== null && change((d) => ({ ...d, canvas: { ...d.canvas, row_height: v } }))}
            style={{ width: 170 }}
          />
        </Space>
        <Space>
          <Dropdown
            trigger={['click']}
            menu={{
              items: HMI_WIDGET_TYPES.map((type) => ({ key: type, label: t(`hmi.type.${type}`) })),
              onClick: ({ key }) => add(key as HmiWidgetType),
            }}
          >
            <Button data-testid="hmi-add-widget" disabled={!editable}>
              {t('hmi.editor.add')}
            </Button>
          </Dropdown>
          <Button onClick={() => navigate(`/HmiView?id=${id}`)}>{t('hmi.action.view')}</Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            disabled={!editable}
            onClick={onSave}
            data-testid="hmi-editor-save"
          >
            {t('hmi.editor.save')}
            {dirty ? ' *' : ''}
          </Button>
        </Space>
      </Space>
      {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 12 }} data-testid="hmi-editor-problem" />}
      <div className="lh-hmi__editor">
        <div className="lh-hmi__editor-canvas">
          <HmiCanvasView
            canvas={draft.canvas}
            live={false}
            selected={selected}
            onSelect={setSelected}
            onChange={(wid, cells) => patchWidget(wid, cells)}
          />
          <Typography.Text type="secondary">{t('hmi.editor.hint')}</Typography.Text>
        </div>
        <Card size="small" className="lh-hmi__editor-side" title={t('hmi.editor.properties')}>
          {sel ? (
            <WidgetPanel
              key={sel.id}
              tenantId={tenantId}
              w={sel}
              onChange={(p) => patchWidget(sel.id, p)}
              onRemove={() => {
                change((d) => ({ ...d, canvas: { ...d.canvas, widgets: d.canvas.widgets.filter((w) => w.id !== sel.id) } }));
                setSelected(null);
              }}
            />
          ) : (
            <Typography.Text type="secondary">{t('hmi.editor.selectHint')}</Typography.Text>
          )}
        </Card>
      </div>
    </Card>
  );
}
