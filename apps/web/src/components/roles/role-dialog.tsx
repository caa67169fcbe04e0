import type { Role, RoleInput } from '@loggerhead/contract/schemas/roles.ts';
import type { QueryKey } from '@tanstack/react-query';
import { Checkbox, Form, Input } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../form-modal.tsx';
import { grantsForMenus, SUB_USER_MENUS } from './grants.ts';
import { GrantsTree } from './grants-tree.tsx';

interface Values {
  name: string;
  description?: string;
  menus: string[];
  keys: string[];
}

interface Props {
  /** null closed, 'new' to add, a role to edit. */
  target: Role | 'new' | null;
  /** Creates (role null) or updates the role. */
  save: (role: Role | null, body: RoleInput) => Promise<unknown>;
  invalidate: QueryKey;
  onClose: () => void;
}

/**
 * Add or edit a role (spec §6 control roles): a name, the menus it shows and the permission keys it
 * grants to the sub-users holding it. The same dialog serves a tenant's roles and the common ones.
 */
export function RoleDialog({ target, save, invalidate, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const editing = target !== null && target !== 'new' ? target : null;
  // The menus ticked before the last change (the form holds the new ones by the time it tells us).
  const shownMenus = useRef<string[]>([]);
  useEffect(() => {
    shownMenus.current = editing?.menus ?? [];
  }, [editing]);
  return (
    <FormModal<Values>
      open={target !== null}
      title={editing ? t('roles.form.editTitle', { name: editing.name }) : t('roles.form.addTitle')}
      form={form}
      record={editing}
      name="role"
      width={760}
      initial={
        editing
          ? { name: editing.name, description: editing.description ?? '', menus: editing.menus, keys: editing.keys }
          : { name: '', description: '', menus: [], keys: [] }
      }
      submit={(v) =>
        save(editing, {
          name: v.name.trim(),
          description: v.description?.trim() || null,
          menus: v.menus as RoleInput['menus'],
          keys: v.keys,
        })
      }
      invalidate={invalidate}
      savedText={t('roles.form.saved')}
      fields={['name', 'keys', 'menus']}
      onClose={onClose}
    >
      <Form.Item
        name="name"
        label={t('roles.form.name')}
        rules={[
          { required: true, whitespace: true, message: t('roles.form.nameRequired') },
          { max: 64, message: t('roles.form.tooLong', { max: 64 }) },
        ]}
      >
        <Input data-testid="role-name" />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('roles.form.description')}
        rules={[{ max: 256, message: t('roles.form.tooLong', { max: 256 }) }]}
      >
        <Input.TextArea rows={2} />
      </Form.Item>
      <Form.Item name="menus" label={t('roles.form.menus')} extra={t('roles.form.menusHint')}>
        <Checkbox.Group
          data-testid="role-menus"
          options={SUB_USER_MENUS.map((k) => ({ value: k, label: t(`app.menu.${k}`) }))}
          onChange={(menus) => {
            // A newly ticked menu brings the keys it needs to open (the manager can still untick them).
            const added = menus.map(String).filter((m) => !shownMenus.current.includes(m));
            shownMenus.current = menus.map(String);
            if (added.length) form.setFieldValue('keys', grantsForMenus(form.getFieldValue('keys') ?? [], added));
          }}
        />
      </Form.Item>
      <Form.Item name="keys" label={t('roles.form.keys')} extra={t('roles.form.keysHint')}>
        <GrantsTree />
      </Form.Item>
    </FormModal>
  );
}
