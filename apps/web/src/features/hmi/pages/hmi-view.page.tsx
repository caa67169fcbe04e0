import { ArrowLeftOutlined, FullscreenOutlined } from '@ant-design/icons';
import type { HmiPressResult, HmiWidget } from '@loggerhead/contract/schemas/hmi.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Empty, Spin, Tag, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { useSession } from '../../../session/use-session.ts';
import { hmiApi, hmiKeys } from '../api/hmi.api.ts';
import { HmiCanvasView } from '../components/hmi-canvas.tsx';
import { useHmiLive } from '../components/use-hmi-live.ts';
import '../hmi.css';

/** How a press ended, as the operator reads it. */
function pressTone(r: HmiPressResult): 'success' | 'warning' | 'error' {
  if (r.kind === 'twin' || (r.state === 'answered' && (r.code ?? 0) === 0)) return 'success';
  if (['sent', 'delivered', 'queued'].includes(r.state)) return 'warning';
  return 'error';
}

/**
 * An HMI screen full-screen (`/HmiView?id=`): its widgets with the live values of their signals and
 * properties, its buttons sending their commands. For a tablet by the machine: no header, no menus.
 */
export default function HmiViewPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const tenantId = session.tenantId;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const screen = useQuery({
    queryKey: hmiKeys.open(tenantId, id),
    queryFn: ({ signal }) => hmiApi.open(tenantId as string, id, signal),
    enabled: Boolean(tenantId && id),
  });
  const live = useHmiLive(tenantId ?? '', screen.data?.canvas);
  const [last, setLast] = useState<{ widget: string; result: HmiPressResult } | null>(null);
  const brand = session.customization.systemName || session.config?.cloudname || t('common.brand.default');

  useEffect(() => {
    document.title = `${screen.data?.name ?? t('app.menu.myHmi')} - ${brand}`;
  }, [screen.data?.name, brand, t]);

  const press = useMutation({
    mutationFn: (w: HmiWidget) => hmiApi.press(tenantId as string, id, w.id),
    onSuccess: (result, w) => {
      setLast({ widget: w.label || w.id, result });
      const tone = pressTone(result);
      const text = t(`hmi.press.${tone}`, { name: w.label || w.id, state: t(`hmi.state.${result.state}`, { defaultValue: result.state }) });
      if (tone === 'success') void message.success(text);
      else if (tone === 'warning') void message.warning(text);
      else void message.error(text);
    },
  });

  if (!tenantId) return null;
  return (
    <div className="lh-hmi__view" data-testid="hmi-view">
      <div className="lh-hmi__view-bar">
        <Tooltip title={t('hmi.view.back')}>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            style={{ color: '#fff' }}
            onClick={() => navigate('/Container/MyHmi')}
            aria-label={t('hmi.view.back')}
          />
        </Tooltip>
        <h1>{screen.data?.name}</h1>
        {last && (
          <Tag color={pressTone(last.result)} data-testid="hmi-press-result" data-state={last.result.state}>
            {last.widget}: {t(`hmi.state.${last.result.state}`, { defaultValue: last.result.state })}
            {last.result.code !== null ? ` (${last.result.code})` : ''}
          </Tag>
        )}
        {Object.keys(live.errors).length > 0 && (
          <Tag color="red" data-testid="hmi-live-error">
            {t('hmi.view.liveRefused')}
          </Tag>
        )}
        <LanguageSwitch />
        <Tooltip title={t('hmi.view.fullScreen')}>
          <Button
            type="text"
            icon={<FullscreenOutlined />}
            style={{ color: '#fff' }}
            aria-label={t('hmi.view.fullScreen')}
            onClick={() => void document.documentElement.requestFullscreen?.().catch(() => {})}
          />
        </Tooltip>
      </div>
      {screen.isLoading ? (
        <Spin style={{ margin: 48 }} />
      ) : screen.data ? (
        <div style={{ padding: 8 }}>
          <HmiCanvasView
            canvas={screen.data.canvas}
            values={live.values}
            live
            pressing={press.isPending ? (press.variables?.id ?? null) : null}
            onPress={(w) => press.mutate(w)}
          />
        </div>
      ) : (
        <Empty style={{ marginTop: 64 }} description={t('hmi.view.missing')} />
      )}
    </div>
  );
}
