import { Card, Menu, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { getToken } from '../../../api/session-storage.ts';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { DOC_TYPES, type DocType, docTypeOf, HELP, PROTOCOL, QUICK_DELETE, RELEASES, type Section } from '../components/doc-content.ts';
import { DocSection } from '../components/doc-section.tsx';
import '../doc.css';

const SECTIONS: Record<Exclude<DocType, 'updateLog'>, Section[]> = { help: HELP, protocol: PROTOCOL, quickDelete: QUICK_DELETE };

function UpdateLog() {
  const { t } = useTranslation();
  return (
    <Timeline
      data-testid="update-log"
      items={RELEASES.map((r) => ({
        key: r.version,
        children: (
          <>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              <Tag color="blue">v{r.version}</Tag> {r.date}
            </Typography.Title>
            <ul>
              {r.changes.map((c) => (
                <li key={c}>{t(c)}</li>
              ))}
            </ul>
          </>
        ),
      }))}
    />
  );
}

/**
 * Public help (spec §2 `/doc`): `type=help` the console guide, `type=quickDelete` quick
 * delete, plus the device protocol and the update log (`type=protocol`, `type=updateLog`).
 */
export default function DocPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const type = docTypeOf(params.get('type'));
  const signedIn = getToken() !== null;
  return (
    <PublicFrame>
      <div className="lh-doc" data-testid="doc" data-type={type}>
        <nav className="lh-doc__nav">
          <Menu
            mode="inline"
            style={{ borderInlineEnd: 'none' }}
            selectedKeys={[type]}
            items={DOC_TYPES.map((k) => ({ key: k, label: t(`doc.nav.${k}`) }))}
            onClick={({ key }) => {
              setParams({ type: key }, { replace: false });
              window.scrollTo(0, 0);
            }}
          />
          <div className="lh-doc__back">
            <Link to={signedIn ? '/Container/HomePage' : '/Login'}>
              {signedIn ? t('common.action.backHome') : t('common.action.backToLogin')}
            </Link>
          </div>
        </nav>
        <Card className="lh-doc__body">
          <Typography.Title level={2} style={{ marginTop: 0 }}>
            {t(`doc.nav.${type}`)}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{t(`doc.lead.${type}`)}</Typography.Paragraph>
          {type === 'updateLog' ? <UpdateLog /> : SECTIONS[type].map((s) => <DocSection key={s.id} section={s} />)}
        </Card>
      </div>
    </PublicFrame>
  );
}
