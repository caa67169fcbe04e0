import { Empty } from 'antd';
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VIRTUAL_ROW_HEIGHT, visibleWindow } from './virtual-window.ts';

export interface VirtualListProps {
  count: number;
  /** Bumped by the owner whenever rows change in place (a ring buffer keeps its length). */
  version?: number;
  height: number;
  rowHeight?: number;
  /** Keep the newest row in view while the user has not scrolled up. */
  follow?: boolean;
  renderRow: (index: number) => ReactNode;
  testId?: string;
}

/**
 * A list that renders only the rows in view (spec §9 virtual list), so tens of thousands of
 * rows cost the same as forty. Rows have a fixed height; the owner draws them.
 */
export function VirtualList({
  count,
  version = 0,
  height,
  rowHeight = VIRTUAL_ROW_HEIGHT,
  follow = false,
  renderRow,
  testId,
}: VirtualListProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // Whether the user sits at the bottom; scrolling up stops following until they come back.
  const atBottom = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` signals new rows in a buffer of unchanged length.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !follow || !atBottom.current) return;
    const bottom = Math.max(0, count * rowHeight - el.clientHeight);
    if (el.scrollTop !== bottom) el.scrollTop = bottom;
    setScrollTop(bottom);
  }, [count, version, follow, rowHeight]);

  if (count === 0) {
    return (
      <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid={testId}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dataView.list.empty')} />
      </div>
    );
  }

  const { start, end } = visibleWindow(scrollTop, height, count, rowHeight);
  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    rows.push(
      <div key={i} style={{ position: 'absolute', top: i * rowHeight, left: 0, right: 0, height: rowHeight }}>
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={ref}
      data-testid={testId}
      style={{ height, overflowY: 'auto', position: 'relative', contain: 'strict' }}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollTop + el.clientHeight >= el.scrollHeight - rowHeight;
        setScrollTop(el.scrollTop);
      }}
    >
      <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>
    </div>
  );
}
