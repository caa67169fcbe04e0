import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { breadcrumbOf, titleKeyOf } from '../page-titles.ts';

/** The way back from a page opened from another one (spec §2 breadcrumb): home › parent › this page. */
export function PageBreadcrumb({ path }: { path: string | null }) {
  const { t } = useTranslation();
  const chain = breadcrumbOf(path);
  if (chain.length === 0) return null;
  const name = (p: string) => {
    const key = titleKeyOf(p);
    return key ? t(key) : p;
  };
  return (
    <Breadcrumb
      className="lh-breadcrumb"
      data-testid="breadcrumb"
      items={[
        ...(chain[0] === 'HomePage'
          ? []
          : [
              {
                title: (
                  <Link to="/Container/HomePage" aria-label={t('app.menu.home')}>
                    <HomeOutlined />
                  </Link>
                ),
              },
            ]),
        ...chain.map((p, i) => ({
          title: i < chain.length - 1 ? <Link to={`/Container/${p}`}>{name(p)}</Link> : name(p),
        })),
      ]}
    />
  );
}
