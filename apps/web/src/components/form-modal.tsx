import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, type FormInstance, Modal } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/error-funnel.ts';

interface Props<V extends object> {
  open: boolean;
  title: string;
  /** The caller's form (it may watch it, as a preview does). */
  form: FormInstance<V>;
  /** The record being edited, or null for a new one: the form is filled again when it or `open` changes. */
  record: unknown;
  /** The values the form opens with: the record's, or the blanks of a new one. */
  initial: V;
  /** Saves the form's values; the caller trims and maps them to its call. */
  submit: (values: V) => Promise<unknown>;
  /** Queries read again after a save. */
  invalidate: QueryKey;
  savedText: string;
  /** A server error that names one of these fields is shown under it; any other is a message. */
  fields: readonly (keyof V & string)[];
  onClose: () => void;
  /** The form's name (ids of its inputs). */
  name?: string;
  width?: number;
  children: ReactNode;
}

/**
 * A dialog that adds or edits one record: a form filled when it opens, saved through the API,
 * the lists re-read and a "saved" message on success, and the server's refusal shown under the field
 * it names (a duplicate name, say) or as a message.
 */
export function FormModal<V extends object>({
  open,
  title,
  form,
  record,
  initial,
  submit,
  invalidate,
  savedText,
  fields,
  onClose,
  name,
  width,
  children,
}: Props<V>) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  // The values are read when the dialog opens or the record changes, not on every render (a
  // caller builds them anew each time, and filling the form again would undo the user's typing).
  const opening = useRef(initial);
  opening.current = initial;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form is filled again when another record opens
  useEffect(() => {
    if (open) form.setFieldsValue(opening.current as Parameters<typeof form.setFieldsValue>[0]);
  }, [open, record, form]);

  const save = useMutation({
    mutationFn: submit,
    meta: { silent: true },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: invalidate });
      void message.success(savedText);
      onClose();
    },
    onError: (e) => {
      const text = errorText(e, t, (k) => i18n.exists(k));
      const field = e.errors[0]?.field;
      if (field && (fields as readonly string[]).includes(field)) form.setFields([{ name: field as never, errors: [text] }]);
      else void message.error(text);
    },
  });

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={t('common.action.ok')}
      cancelText={t('common.action.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Form<V> form={form} name={name} layout="vertical" onFinish={(v) => save.mutate(v)}>
        {children}
      </Form>
    </Modal>
  );
}
