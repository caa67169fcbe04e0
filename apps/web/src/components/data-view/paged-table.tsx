import type { ReactNode } from 'react';
import { type ChooserColumn, ColumnChooserTable } from './column-chooser-table.tsx';
import { Paginator } from './paginator.tsx';
import type { PageState } from './paging.ts';

export interface PagedTableProps<T> {
  /** User-config key the column choice is saved under. */
  configKey: string;
  testId?: string;
  columns: ChooserColumn<T>[];
  /** The page read from the server (undefined before the first answer). */
  page: { list: T[]; total: number } | undefined;
  /** Reading a page (the table shows a spinner only before the first one). */
  fetching: boolean;
  paging: PageState;
  onPaging: (next: PageState) => void;
  rowKey: (row: T) => string;
  /** Left side of the tool bar (search, filters). */
  toolbar?: ReactNode;
}

/**
 * The shape of a list page's body: the column-chooser table of one page of rows, numbered across
 * pages, and the paginator under it.
 */
export function PagedTable<T extends object>({
  configKey,
  testId,
  columns,
  page,
  fetching,
  paging,
  onPaging,
  rowKey,
  toolbar,
}: PagedTableProps<T>) {
  return (
    <>
      <ColumnChooserTable<T>
        configKey={configKey}
        testId={testId}
        columns={columns}
        rows={page?.list ?? []}
        rowKey={rowKey}
        loading={fetching && !page}
        firstIndex={(paging.page - 1) * paging.size + 1}
        toolbar={toolbar}
      />
      <div style={{ marginTop: 16 }}>
        <Paginator value={paging} total={page?.total ?? 0} onChange={onPaging} />
      </div>
    </>
  );
}
