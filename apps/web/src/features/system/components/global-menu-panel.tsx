import { TOP_MENU_KEYS } from '@loggerhead/contract/schemas/roles.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { globalConfigQuery } from '../../../session/session.queries.ts';
import { systemApi, systemKeys } from '../api/system.api.ts';

type TopMenuKey = (typeof TOP_MENU_KEYS)[number];

/**
 * The global menu configuration (spec §2/§3): the top-menu entries every manager's header shows.
 * Sub-users keep seeing only the menus bound to them. The home page always stays.
 */
export function GlobalMenuPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const current = useQuery({ queryKey: systemKeys.globalMenu(), queryFn: ({ signal }) => systemApi.globalMenu(signal) });
  const [menu, setMenu] = useState<TopMenuKey[]>([]);
  useEffect(() => {
    if (current.data) setMenu(current.data.menu);
  }, [current.data]);
  const save = useMutation({
    mutationFn: () => systemApi.setGlobalMenu({ menu }),
    onSuccess: () => {
      message.success(t('system.menus.saved'));
      void qc.invalidateQueries({ queryKey: systemKeys.globalMenu() });
      // The header reads the menu from the global configuration.
      void qc.invalidateQueries({ queryKey: globalConfigQuery().queryKey });
    },
  });
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('system.menus.hint')} />
      <Checkbox.Group
        data-testid="global-menu"
        value={menu}
        onChange={(v) => setMenu(v as TopMenuKey[])}
        options={TOP_MENU_KEYS.map((k) => ({ value: k, label: t(`app.menu.${k}`), disabled: k === 'home' }))}
      />
      <Button type="primary" loading={save.isPending} disabled={!current.data} onClick={() => save.mutate()} data-testid="global-menu-save">
        {t('system.menus.save')}
      </Button>
    </Space>
  );
}
