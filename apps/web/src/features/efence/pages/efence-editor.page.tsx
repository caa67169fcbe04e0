import { ArrowLeftOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import type { FenceInput, LatLon } from '@loggerhead/contract/schemas/fence.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Radio, Row, Space, Spin, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { efenceApi, efenceKeys, fenceQuery } from '../../../api/efence.api.ts';
import { mayCall } from '../../../session/can.ts';
import { useSession } from '../../../session/use-session.ts';
import { FenceDraw, type FenceShape } from '../components/fence-draw.tsx';
import { RADIUS_MAX, RADIUS_MIN, validLatLon, validRadius } from '../components/geo.ts';

/** /Container/EFenceManager/EFenceEditor?id=… — draw a polygon, a circle or a border and save it. */
export default function EfenceEditorPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const { tenantId } = useSession();
  const id = params.get('id') ?? '';
  const fence = useQuery(fenceQuery(tenantId, id));
  const [form] = Form.useForm<{ name: string; description?: string }>();
  const [shape, setShape] = useState<FenceShape>('polygon');
  const [points, setPoints] = useState<LatLon[]>([]);
  const [center, setCenter] = useState<LatLon | null>(null);
  const [radius, setRadius] = useState(500);
  const [tolerance, setTolerance] = useState(RADIUS_MIN);
  const [problem, setProblem] = useState<string | null>(null);
  // Typed coordinates (not map clicks) bring the fence into view.
  const [refit, setRefit] = useState(0);
  const back = () => navigate('/Container/EFenceManager');

  useEffect(() => {
    const f = fence.data;
    if (!f) return;
    form.setFieldsValue({ name: f.name, description: f.description });
    if (f.type === 'border' && f.border) {
      setShape('border');
      setPoints(f.border.points);
      setTolerance(f.border.tolerance);
    } else if (f.region?.shape === 'circle') {
      setShape('circle');
      setCenter(f.region.center);
      setRadius(f.region.radius);
    } else if (f.region?.shape === 'polygon') {
      setShape('polygon');
      setPoints(f.region.points);
    }
  }, [fence.data, form]);

  const save = useMutation({
    mutationFn: (body: FenceInput) => (id ? efenceApi.update(tenantId as string, id, body) : efenceApi.create(tenantId as string, body)),
    onSuccess: async () => {
      message.success(t('efence.editor.saved'));
      await qc.invalidateQueries({ queryKey: efenceKeys.tenant(tenantId) });
      back();
    },
  });

  /** The geometry as the server takes it, or a message saying what is missing. */
  const geometry = (): Pick<FenceInput, 'type' | 'region' | 'border'> | string => {
    if (shape === 'circle') {
      if (!center) return t('efence.editor.needCenter');
      if (!validLatLon(center)) return t('efence.editor.badCoord');
      if (!validRadius(radius)) return t('efence.editor.badRadius', { min: RADIUS_MIN, max: RADIUS_MAX });
      return { type: 'region', region: { shape: 'circle', center, radius }, border: null };
    }
    if (points.some((p) => !validLatLon(p))) return t('efence.editor.badCoord');
    if (shape === 'polygon') {
      if (points.length < 3) return t('efence.editor.needPolygon');
      return { type: 'region', region: { shape: 'polygon', points }, border: null };
    }
    if (points.length < 2) return t('efence.editor.needBorder');
    if (!validRadius(tolerance)) return t('efence.editor.badRadius', { min: RADIUS_MIN, max: RADIUS_MAX });
    return { type: 'border', region: null, border: { points, tolerance } };
  };

  const submit = (v: { name: string; description?: string }) => {
    const g = geometry();
    if (typeof g === 'string') {
      setProblem(g);
      return;
    }
    setProblem(null);
    save.mutate({ name: v.name, description: v.description ?? '', ...g });
  };

  const setPoint = (i: number, key: 'lat' | 'lon', value: number | null) => {
    setPoints((ps) => ps.map((p, j) => (j === i ? { ...p, [key]: value ?? Number.NaN } : p)));
    setRefit((n) => n + 1);
  };

  if (id && fence.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;

  return (
    <Card
      variant="borderless"
      data-testid="efence-editor"
      title={
        <Space>
          <Button icon={<ArrowLeftOutlined />} type="text" onClick={back} aria-label={t('efence.editor.back')} />
          {id ? t('efence.editor.title') : t('efence.editor.newTitle')}
        </Space>
      }
    >
      <Row gutter={16}>
        <Col xs={24} lg={8}>
          <Form form={form} layout="vertical" onFinish={submit}>
            <Form.Item
              name="name"
              label={t('efence.field.name')}
              rules={[
                { required: true, whitespace: true, message: t('efence.editor.nameRequired') },
                { max: 50, message: t('efence.editor.nameLength') },
              ]}
            >
              <Input maxLength={50} showCount data-testid="efence-name" />
            </Form.Item>
            <Form.Item label={t('efence.field.type')}>
              <Radio.Group
                value={shape}
                optionType="button"
                onChange={(e) => {
                  setShape(e.target.value as FenceShape);
                  setProblem(null);
                }}
                options={[
                  { value: 'polygon', label: t('efence.shape.polygon') },
                  { value: 'circle', label: t('efence.shape.circle') },
                  { value: 'border', label: t('efence.shape.border') },
                ]}
              />
            </Form.Item>
            <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t(`efence.editor.hint.${shape}`)} />
            {shape === 'circle' ? (
              <>
                <Space wrap>
                  <Form.Item label={t('efence.field.lat')}>
                    <InputNumber
                      min={-90}
                      max={90}
                      value={center?.lat ?? null}
                      onChange={(v) => {
                        setCenter((c) => ({ lat: v ?? Number.NaN, lon: c?.lon ?? 0 }));
                        setRefit((n) => n + 1);
                      }}
                    />
                  </Form.Item>
                  <Form.Item label={t('efence.field.lon')}>
                    <InputNumber
                      min={-180}
                      max={180}
                      value={center?.lon ?? null}
                      onChange={(v) => {
                        setCenter((c) => ({ lat: c?.lat ?? 0, lon: v ?? Number.NaN }));
                        setRefit((n) => n + 1);
                      }}
                    />
                  </Form.Item>
                </Space>
                <Form.Item label={t('efence.field.radius')} extra={`${RADIUS_MIN}–${RADIUS_MAX} m`}>
                  <InputNumber
                    min={RADIUS_MIN}
                    max={RADIUS_MAX}
                    value={radius}
                    onChange={(v) => setRadius(v ?? RADIUS_MIN)}
                    addonAfter="m"
                    data-testid="efence-radius"
                  />
                </Form.Item>
              </>
            ) : (
              <>
                {shape === 'border' && (
                  <Form.Item label={t('efence.field.tolerance')} extra={`${RADIUS_MIN}–${RADIUS_MAX} m`}>
                    <InputNumber
                      min={RADIUS_MIN}
                      max={RADIUS_MAX}
                      value={tolerance}
                      onChange={(v) => setTolerance(v ?? RADIUS_MIN)}
                      addonAfter="m"
                    />
                  </Form.Item>
                )}
                <Table<LatLon & { i: number }>
                  size="small"
                  rowKey="i"
                  pagination={false}
                  scroll={{ y: 220 }}
                  dataSource={points.map((p, i) => ({ ...p, i }))}
                  columns={[
                    { title: '#', dataIndex: 'i', width: 40, render: (i: number) => i + 1 },
                    {
                      title: t('efence.field.lat'),
                      dataIndex: 'lat',
                      render: (v: number, r) => (
                        <InputNumber
                          size="small"
                          min={-90}
                          max={90}
                          value={Number.isNaN(v) ? null : v}
                          onChange={(x) => setPoint(r.i, 'lat', x)}
                        />
                      ),
                    },
                    {
                      title: t('efence.field.lon'),
                      dataIndex: 'lon',
                      render: (v: number, r) => (
                        <InputNumber
                          size="small"
                          min={-180}
                          max={180}
                          value={Number.isNaN(v) ? null : v}
                          onChange={(x) => setPoint(r.i, 'lon', x)}
                        />
                      ),
                    },
                    {
                      key: 'x',
                      width: 50,
                      render: (_, r) => (
                        <Button size="small" type="link" danger onClick={() => setPoints((ps) => ps.filter((_p, j) => j !== r.i))}>
                          ×
                        </Button>
                      ),
                    },
                  ]}
                />
                <Space style={{ margin: '8px 0' }}>
                  <Button size="small" disabled={!points.length} onClick={() => setPoints((ps) => ps.slice(0, -1))}>
                    {t('efence.editor.undo')}
                  </Button>
                  <Button size="small" disabled={!points.length} onClick={() => setPoints([])}>
                    {t('efence.editor.clear')}
                  </Button>
                </Space>
              </>
            )}
            <Form.Item name="description" label={t('efence.field.description')} rules={[{ max: 500 }]}>
              <Input.TextArea maxLength={500} rows={2} />
            </Form.Item>
            {problem && <Alert type="error" showIcon style={{ marginBottom: 12 }} title={problem} data-testid="efence-problem" />}
            <Space>
              {mayCall(id ? Routes.fence.update : Routes.fence.create) && (
                <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="efence-save">
                  {t('efence.editor.save')}
                </Button>
              )}
              <Button onClick={back}>{t('efence.editor.cancel')}</Button>
            </Space>
          </Form>
        </Col>
        <Col xs={24} lg={16}>
          <FenceDraw
            shape={shape}
            points={points}
            center={center}
            radius={radius}
            tolerance={tolerance}
            refit={refit}
            onPick={(p) => {
              setProblem(null);
              if (shape === 'circle') setCenter(p);
              else setPoints((ps) => (ps.length >= 1000 ? ps : [...ps, p]));
            }}
          />
        </Col>
      </Row>
    </Card>
  );
}
