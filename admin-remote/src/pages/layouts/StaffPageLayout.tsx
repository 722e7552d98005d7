import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Heading, Stack, useCatalog } from 'shared-ui';
import { pagesCatalog } from '../i18n';
import type en from '../locales/en.json';

/** A secured page other than the dashboard: its title (a pages' catalogue id), the way back to the dashboard, the page. */
export function StaffPageLayout({ title, children }: { title: keyof typeof en; children: ReactNode }) {
  const { t } = useCatalog(pagesCatalog);
  return (
    <Stack>
      <Heading level={1}>{t(title)}</Heading>
      <p>
        <Link to="/secured/dashboard">{t('backToDashboard')}</Link>
      </p>
      {children}
    </Stack>
  );
}

/** One part of a staff page under its own heading; the heading names the section for screen readers. */
export function PageSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Stack>
        <Heading level={2} id={id}>
          {title}
        </Heading>
        {children}
      </Stack>
    </section>
  );
}
