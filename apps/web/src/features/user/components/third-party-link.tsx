import { LinkOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, List, Popconfirm } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/client.ts';

const linkKey = ['user', 'oidc-link'] as const;

/**
 * Account security row for the third-party (OpenID Connect) login: only an identity linked
 * here can log in from the login page's third-party icon. Hidden when no provider is configured.
 */
export function ThirdPartyLink({ readOnly }: { readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = useQuery({ queryKey: linkKey, queryFn: ({ signal }) => call(Routes.oidc.link, { signal }) });

  // Coming back from the provider: say how it went once, then drop the marker from the address.
  const outcome = params.get('oidc');
  const error = params.get('oidcError');
  useEffect(() => {
    if (!outcome && !error) return;
    if (outcome === 'linked') void message.success(t('user.security.oidc.done'));
    if (error) void message.error(i18n.exists(`errors.${error}`) ? t(`errors.${error}`) : t('errors.oidc.failed'));
    setParams({ tab: 'security' }, { replace: true });
  }, [outcome, error, message, t, i18n, setParams]);

  const link = useMutation({
    mutationFn: () => call(Routes.oidc.startLink, {}),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const unlink = useMutation({
    mutationFn: () => call(Routes.oidc.unlink, {}),
    onSuccess: async () => {
      void message.success(t('user.security.oidc.removed'));
      await qc.invalidateQueries({ queryKey: linkKey });
    },
  });

  if (!state.data?.enabled) return null;
  const s = state.data;
  return (
    <List
      style={{ maxWidth: 720 }}
      dataSource={[s]}
      renderItem={() => (
        <List.Item
          actions={[
            s.linked ? (
              <Popconfirm key="unlink" title={t('user.security.oidc.unlinkConfirm')} onConfirm={() => unlink.mutate()} disabled={readOnly}>
                <Button type="link" danger disabled={readOnly} loading={unlink.isPending} data-testid="security-oidc-unlink">
                  {t('user.security.oidc.unlink')}
                </Button>
              </Popconfirm>
            ) : (
              <Button
                key="link"
                type="link"
                disabled={readOnly}
                loading={link.isPending}
                onClick={() => link.mutate()}
                data-testid="security-oidc-link"
              >
                {t('user.security.oidc.link')}
              </Button>
            ),
          ]}
        >
          <List.Item.Meta
            avatar={<LinkOutlined />}
            title={t('user.security.oidc.title')}
            description={s.linked ? t('user.security.oidc.linked', { subject: s.subject }) : t('user.security.oidc.notLinked')}
          />
        </List.Item>
      )}
    />
  );
}
