import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Block, Section } from './doc-content.ts';

function BlockView({ block }: { block: Block }) {
  const { t } = useTranslation();
  const cell = (c: string) => (c.startsWith('doc.') ? t(c) : <code>{c}</code>);
  if ('p' in block) return <Typography.Paragraph>{t(block.p)}</Typography.Paragraph>;
  if ('ul' in block)
    return (
      <ul>
        {block.ul.map((k) => (
          <li key={k}>{t(k)}</li>
        ))}
      </ul>
    );
  if ('ol' in block)
    return (
      <ol>
        {block.ol.map((k) => (
          <li key={k}>{t(k)}</li>
        ))}
      </ol>
    );
  if ('code' in block) return <pre className="lh-doc__code">{block.code}</pre>;
  return (
    <Table
      size="small"
      bordered
      pagination={false}
      style={{ marginBottom: 16 }}
      rowKey={(r) => r[0]}
      dataSource={block.table.rows}
      columns={block.table.head.map((h, i) => ({ key: h, title: t(h), render: (_v: unknown, r: string[]) => cell(r[i]) }))}
    />
  );
}

export function DocSection({ section }: { section: Section }) {
  const { t } = useTranslation();
  return (
    <section id={section.id} className="lh-doc__section">
      <Typography.Title level={4}>{t(section.title)}</Typography.Title>
      {section.blocks.map((b, i) => (
        // Blocks are fixed content: their order is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: static content, never reordered
        <BlockView key={i} block={b} />
      ))}
    </section>
  );
}
