import type { Locale } from 'shared-api';
import { privacyNotice } from 'shared-api/privacy';
import { ErrorPanel, Spinner, styled, useCatalog } from 'shared-ui';
import { Note } from '../../components/layout';
import { useGetVisitDocumentsQuery } from '../api/documentsApi';
import { documentsCatalog } from '../i18n';
import { megabytes } from '../utils/words';
import { DocumentRow } from './DocumentRow';
import { Part } from './layout';
import { RegistrationForm } from './RegistrationForm';

const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[3]};
  h3 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
`;

const Small = styled.p`
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

/**
 * The privacy notice's section on how long data is kept: the notice in force is the one place the retention is stated
 * to parents (brand.config.json), so this page quotes it rather than say it again. Found by its place in English's
 * order, which every language keeps (privacy-notice.test.ts).
 */
const RETENTION_SECTION = privacyNotice.texts.en.sections.findIndex((s) => s.heading === 'How long we keep it');
const retentionText = (locale: Locale): string | undefined => privacyNotice.texts[locale].sections[RETENTION_SECTION]?.body;

/** "Before your visit" on the manage page (issue 40): per child, each document's state and file, the form, the PDPA notice. */
export function VisitDocuments({ token }: { token: string }) {
  const { t, locale } = useCatalog(documentsCatalog);
  const query = useGetVisitDocumentsQuery(token);
  const view = query.data;
  const kept = retentionText(locale);
  return (
    <Section aria-labelledby="manage-documents-title" aria-busy={query.isLoading || undefined}>
      <h2 id="manage-documents-title">{t('title')}</h2>
      {query.isLoading ? (
        <Spinner label={t('loading')} />
      ) : !view ? (
        <ErrorPanel message={t('loadFailed')} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <p>{t('intro', { maxMb: megabytes(view.limits.maxFileBytes) })}</p>
          {!view.editable && (
            <Note $tone="warning" role="note">
              <p>{t('closed')}</p>
            </Note>
          )}
          {view.children.map((child) => (
            <Part key={child.position} aria-labelledby={`manage-documents-child-${child.position}`}>
              <h3 id={`manage-documents-child-${child.position}`}>{child.name ? t('child', { name: child.name }) : t('childUnnamed')}</h3>
              <List>
                {child.items.map((item) => (
                  <DocumentRow
                    key={item.kind}
                    token={token}
                    position={child.position}
                    child={view.children.length > 1 && child.name ? child.name : null}
                    item={item}
                    limits={view.limits}
                    editable={view.editable}
                  />
                ))}
              </List>
            </Part>
          ))}
          <RegistrationForm token={token} view={view} />
          <Note as="section" aria-labelledby="manage-documents-privacy">
            <h3 id="manage-documents-privacy">{t('privacy.title')}</h3>
            <Small>{t('privacy.who')}</Small>
            {kept && (
              <>
                <Small>{t('privacy.kept')}</Small>
                <Small>{kept}</Small>
              </>
            )}
          </Note>
        </>
      )}
    </Section>
  );
}
