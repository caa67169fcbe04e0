import type { ScriptProblem, ScriptValidation } from '@loggerhead/contract/schemas/testmgmt.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Select, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveBlob } from '../../../components/data-view/file-download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { can } from '../../../session/can.ts';
import { testApi } from '../api/testmgmt.api.ts';
import { scriptQuery, testKeys, versionsQuery } from '../api/testmgmt.queries.ts';
import { ValidationResult } from './validation-result.tsx';

/** CodeMirror loads only when a script is opened. */
const GroovyEditor = lazy(() => import('./groovy-editor.tsx'));

export const NEW_SCRIPT_TEMPLATE = `// frames: the collected frames; signal('Name'): a decoded DBC signal; params: the routine's parameters
metric('frames', frames.size())
check('frames collected', frames.size() > 0)
`;

export interface ScriptEditorProps {
  tenantId: string;
  /** The script to edit; null: a new one. */
  scriptId: string | null;
  open: boolean;
  onClose: () => void;
  /** A new script was created: the drawer goes on with it. */
  onCreated?: (id: string) => void;
}

/** Edit a script: name, notes, Groovy text; Validate (errors by line), Save (a new version), versions, export. */
export function ScriptEditor({ tenantId, scriptId, open, onClose, onCreated }: ScriptEditorProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const script = useQuery({ ...scriptQuery(tenantId, scriptId), enabled: open && Boolean(scriptId) });
  const versions = useQuery({ ...versionsQuery(tenantId, scriptId), enabled: open && Boolean(scriptId) });
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const [content, setContent] = useState(NEW_SCRIPT_TEMPLATE);
  const [validated, setValidated] = useState<{ content: string; result: ScriptValidation } | null>(null);
  const [jump, setJump] = useState<{ line: number; column: number } | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);

  // Loads the script (or the template) each time the drawer opens on another one.
  useEffect(() => {
    if (!open) return;
    setValidated(null);
    setViewing(null);
    if (!scriptId) {
      setName('');
      setNotes('');
      setContent(NEW_SCRIPT_TEMPLATE);
    } else if (script.data) {
      setName(script.data.name);
      setNotes(script.data.notes);
      setContent(script.data.content);
    }
  }, [open, scriptId, script.data]);

  const validate = useMutation({
    mutationFn: (text: string) => testApi.validateScript(tenantId, text),
    onSuccess: (result, text) => setValidated({ content: text, result }),
  });
  const save = useMutation({
    mutationFn: () =>
      scriptId
        ? testApi.updateScript(tenantId, scriptId, { name, notes, content })
        : testApi.createScript(tenantId, { name, notes, content }),
    onSuccess: (s) => {
      message.success(t('test.script.saved', { version: s.version }));
      void qc.invalidateQueries({ queryKey: testKeys.scripts(tenantId) });
      void qc.invalidateQueries({ queryKey: testKeys.routines(tenantId) });
      if (!scriptId) onCreated?.(s.id);
    },
  });
  const loadVersion = useMutation({
    mutationFn: (v: number) => testApi.scriptVersion(tenantId, scriptId as string, v),
    onSuccess: (v) => {
      setContent(v.content);
      setViewing(v.version);
    },
  });
  const exportFile = useMutation({
    mutationFn: () => testApi.exportScript(tenantId, scriptId as string),
    onSuccess: (f) => saveBlob(f.blob, f.name),
  });

  const problems: ScriptProblem[] = useMemo(
    () => (validated && validated.content === content ? validated.result.errors.filter((e) => e.line > 0) : []),
    [validated, content],
  );
  const mayEdit = scriptId ? can('test-mgmt:script:update') : can('test-mgmt:script:create');
  const loading = Boolean(scriptId) && !script.data;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={Math.min(1000, window.innerWidth - 60)}
      destroyOnHidden
      title={scriptId ? t('test.script.edit', { name: script.data?.name ?? '' }) : t('test.script.new')}
      extra={
        <Space>
          {scriptId && can('test-mgmt:script:export') && (
            <Button onClick={() => exportFile.mutate()} loading={exportFile.isPending} data-testid="script-export">
              {t('test.action.export')}
            </Button>
          )}
          {can('test-mgmt:script:validate') && (
            <Button onClick={() => validate.mutate(content)} loading={validate.isPending} data-testid="script-validate">
              {t('test.action.validate')}
            </Button>
          )}
          {mayEdit && (
            <Button type="primary" onClick={() => save.mutate()} loading={save.isPending} disabled={!name.trim()} data-testid="script-save">
              {t('test.action.save')}
            </Button>
          )}
        </Space>
      }
    >
      {loading ? (
        <Skeleton active />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <Form layout="vertical" component="div">
            <Space wrap align="start">
              <Form.Item label={t('test.field.name')} required style={{ marginBottom: 0 }}>
                <Input
                  value={name}
                  maxLength={64}
                  onChange={(e) => setName(e.target.value)}
                  style={{ width: 280 }}
                  data-testid="script-name"
                />
              </Form.Item>
              <Form.Item label={t('test.field.notes')} style={{ marginBottom: 0 }}>
                <Input
                  value={notes}
                  maxLength={1000}
                  onChange={(e) => setNotes(e.target.value)}
                  style={{ width: 360 }}
                  data-testid="script-notes"
                />
              </Form.Item>
              {scriptId && (
                <Form.Item label={t('test.script.versions')} style={{ marginBottom: 0 }}>
                  <Select<number>
                    style={{ width: 260 }}
                    value={viewing ?? script.data?.version}
                    loading={versions.isFetching || loadVersion.isPending}
                    onChange={(v) => loadVersion.mutate(v)}
                    data-testid="script-versions"
                    options={(versions.data ?? []).map((v) => ({
                      value: v.version,
                      label: `v${v.version} · ${formatDateTime(v.created_at)}`,
                    }))}
                  />
                </Form.Item>
              )}
            </Space>
          </Form>
          {viewing !== null && viewing !== script.data?.version && (
            <Typography.Text type="warning" data-testid="script-old-version">
              {t('test.script.viewingVersion', { version: viewing })}
            </Typography.Text>
          )}
          <Suspense fallback={<Skeleton active paragraph={{ rows: 10 }} />}>
            <GroovyEditor value={content} onChange={setContent} problems={problems} jump={jump} readOnly={!mayEdit} />
          </Suspense>
          <ValidationResult
            result={validated?.result ?? null}
            stale={validated !== null && validated.content !== content}
            onJump={(line, column) => setJump({ line, column })}
          />
        </Space>
      )}
    </Drawer>
  );
}
