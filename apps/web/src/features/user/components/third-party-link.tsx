import { LinkOutlined } from '@ant-design/icons';
import { Routes } from '@loggerhead/contract/routes/index.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, List, Popconfirm } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { call } from '../../../api/client.ts';
import { dropCodeFromAddress, newOidcState, takeOidcState } from '../../../api/oidc-state.ts';

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

  // Coming back from the provider: a one-time code this tab finishes the link with (with the state it
  // stored before it left; a return it did not start is refused), or an error; say how it went once,
  // then drop the marker from the address.
  const code = params.get('oidcCode');
  const error = params.get('oidcError');
  const taken = useRef<string | null>(null);
  useEffect(() => {
    const say = (e: string) => void message.error(i18n.exists(`errors.${e}`) ? t(`errors.${e}`) : t('errors.oidc.failed'));
    if (code && taken.current !== code) {
      taken.current = code;
      dropCodeFromAddress();
      const browserState = takeOidcState();
      setParams({ tab: 'security' }, { replace: true });
      if (!browserState) return say('oidc.bad-state');
      void call(Routes.oidc.completeLink, { body: { code, state: browserState } })
        .then(async () => {
          // The row shows the link at once: the list's first answer may have left before it was made.
          await qc.cancelQueries({ queryKey: linkKey });
          qc.setQueryData(linkKey, await call(Routes.oidc.link, {}));
          void message.success(t('user.security.oidc.done'));
        })
        .catch((e: unknown) => say(e instanceof ApiError ? e.code : 'oidc.failed'));
      return;
    }
    if (!error) return;
    say(error);
    setParams({ tab: 'security' }, { replace: true });
  }, [code, error, message, t, i18n, setParams, qc]);

  const link = useMutation({
    mutationFn: () => call(Routes.oidc.startLink, { body: { browser_state: newOidcState() } }),
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
