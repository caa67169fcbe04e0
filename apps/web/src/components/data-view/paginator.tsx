import { App, Pagination } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format.ts';
import { PAGE_SIZE_OPTIONS, type PageState, pageAllowed, pagerTotal } from './paging.ts';

export interface PaginatorProps {
  value: PageState;
  total: number;
  onChange: (next: PageState) => void;
  /** False when the total is an upper bound (filtered raw-frame counts). */
  exact?: boolean;
  disabled?: boolean;
}

/**
 * The paginator of spec §2/§9: sizes 10-50, and no page past entry 10000 — such a request is
 * refused here with the spec's "over 10000" message instead of failing on the server.
 */
export function Paginator({ value, total, onChange, exact = true, disabled }: PaginatorProps) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return (
    <Pagination
      data-testid="paginator"
      size="small"
      align="end"
      disabled={disabled}
      current={value.page}
      pageSize={value.size}
      total={pagerTotal(total, value.size)}
      showSizeChanger
      pageSizeOptions={PAGE_SIZE_OPTIONS.map(String)}
      showTotal={() =>
        exact
          ? t('dataView.pager.total', { total: formatNumber(total, lang) })
          : t('dataView.pager.totalAtMost', { total: formatNumber(total, lang) })
      }
      onChange={(page, size) => {
        // A new page size starts again at page 1, like every list of the console.
        const next = size !== value.size ? { page: 1, size } : { page, size };
        if (!pageAllowed(next.page, next.size)) {
          void message.warning(t('dataView.pager.over10thou'));
          return;
        }
        onChange(next);
      }}
    />
  );
}
