import { Button, Space, Tree } from 'antd';
import { useTranslation } from 'react-i18next';
import { GRANT_GROUPS, READ_PRESET, WRITE_PRESET } from './grants.ts';

/**
 * The API permissions granted to a sub-user (spec §6), grouped readable / read-write /
 * tenant features, with the two presets of the spec one click away. Keys are shown as the
 * API names they are (`module:resource:action`).
 */
export function GrantsTree({ value = [], onChange }: { value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  const treeData = GRANT_GROUPS.map((g) => ({
    key: `group:${g.scope}`,
    title: t(`roles.grants.group.${g.scope}`),
    children: g.keys.map((k) => ({ key: k, title: <code>{k}</code> })),
  }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Button size="small" onClick={() => onChange?.([...READ_PRESET])}>
          {t('roles.grants.presetRead')}
        </Button>
        <Button size="small" onClick={() => onChange?.([...WRITE_PRESET])}>
          {t('roles.grants.presetWrite')}
        </Button>
        <Button size="small" onClick={() => onChange?.([])}>
          {t('roles.grants.none')}
        </Button>
      </Space>
      <div style={{ maxHeight: 320, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
        <Tree
          checkable
          selectable={false}
          defaultExpandedKeys={['group:device-read']}
          treeData={treeData}
          checkedKeys={value}
          onCheck={(checked) => {
            const keys = (Array.isArray(checked) ? checked : checked.checked).map(String);
            onChange?.(keys.filter((k) => !k.startsWith('group:')));
          }}
        />
      </div>
    </Space>
  );
}
