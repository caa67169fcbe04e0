import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactElement } from 'react';

function render(node: AbstractNode, key?: number): ReactElement {
  return createElement(node.tag, { key, ...node.attrs }, node.children?.map(render));
}

/**
 * An Ant Design icon drawn from its definition alone, without the icon library's runtime (its
 * context and style injection): for the plain-markup sign-in page. Looks like `<UserOutlined />`.
 */
export function SvgIcon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span role="img" aria-hidden="true" className={className ? `lh-icon ${className}` : 'lh-icon'}>
      {createElement('svg', { ...svg.attrs, width: '1em', height: '1em', fill: 'currentColor' }, svg.children?.map(render))}
    </span>
  );
}
