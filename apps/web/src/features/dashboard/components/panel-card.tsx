import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { Panel } from '@loggerhead/contract/schemas/dashboard.ts';
import { Button, Card, Flex, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { refreshMs } from '../lib/panels.ts';
import { LinePanel } from './line-panel.tsx';
import { GaugePanel, NumberPanel } from './value-panels.tsx';

/**
 * One panel of the grid: its name and description (always as text, whatever they contain), the
 * device and channel it reads, its chart, and the actions to move, change or delete it.
 */
export function PanelCard({
  tenantId,
  panel,
  first,
  last,
  busy,
  onMove,
  onEdit,
  onDelete,
  editable = true,
  deletable = editable,
}: {
  tenantId: string;
  panel: Panel;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (step: -1 | 1) => void;
  onEdit: () => void;
  onDelete: () => void;
  /** False for a read-only session (the experience account): no move, change or delete. */
  editable?: boolean;
  /** False when the user may not delete panels. */
  deletable?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const action = (label: string, icon: React.ReactNode, onClick: () => void, testId: string, disabled = false, danger = false) => (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        icon={icon}
        aria-label={label}
        onClick={onClick}
        disabled={disabled || busy}
        danger={danger}
        data-testid={testId}
      />
    </Tooltip>
  );
  return (
    <Card
      size="small"
      className={`lh-dash__panel lh-dash__panel--${panel.chart_type}`}
      data-testid="panel"
      data-panel-name={panel.name}
      title={
        <Flex vertical gap={0} className="lh-dash__title">
          <Typography.Text strong ellipsis={{ tooltip: panel.name }} data-testid="panel-name">
            {panel.name}
          </Typography.Text>
          <Typography.Text type="secondary" className="lh-dash__source" ellipsis>
            {t('dashboard.panel.source', { device: panel.things_name, channel: panel.channel })}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Flex gap={0} align="center">
          {panel.chart_type === 'line' && (
            <Tooltip title={t('dashboard.panel.refreshEvery', { seconds: refreshMs(panel.x_axis_type) / 1000 })}>
              <Tag bordered={false} className="lh-dash__window">
                {t(`dashboard.window.${panel.x_axis_type}`)}
              </Tag>
            </Tooltip>
          )}
          {editable && (
            <>
              {action(t('dashboard.panel.moveUp'), <ArrowUpOutlined />, () => onMove(-1), 'panel-up', first)}
              {action(t('dashboard.panel.moveDown'), <ArrowDownOutlined />, () => onMove(1), 'panel-down', last)}
              {action(t('dashboard.panel.edit'), <EditOutlined />, onEdit, 'panel-edit')}
            </>
          )}
          {deletable && action(t('dashboard.panel.delete'), <DeleteOutlined />, onDelete, 'panel-delete', false, true)}
        </Flex>
      }
    >
      {panel.description && (
        <Typography.Paragraph
          type="secondary"
          ellipsis={{ rows: 2, tooltip: panel.description }}
          className="lh-dash__description"
          data-testid="panel-description"
        >
          {panel.description}
        </Typography.Paragraph>
      )}
      {panel.chart_type === 'line' ? (
        // The chart's legend is written when it is drawn: a new language draws it again.
        <LinePanel key={i18n.language} tenantId={tenantId} panel={panel} />
      ) : panel.chart_type === 'number' ? (
        <NumberPanel tenantId={tenantId} panel={panel} />
      ) : (
        <GaugePanel tenantId={tenantId} panel={panel} />
      )}
    </Card>
  );
}
