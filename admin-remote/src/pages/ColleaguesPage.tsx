import { useState } from 'react';
import { useCatalog } from 'shared-ui';
import { RegisterForm } from '../features/auth';
import { ColleaguesList } from '../features/colleagues';
import { pagesCatalog } from './i18n';
import { NarrowFormCard } from './layouts/FormCard';
import { StaffPageLayout } from './layouts/StaffPageLayout';

/** /secured/colleagues: every staff account, Disable, and the register form to add one (composed here). */
export function ColleaguesPage({ currentUserId }: { currentUserId: number }) {
  const { t } = useCatalog(pagesCatalog);
  const [added, setAdded] = useState(0);
  return (
    <StaffPageLayout title="colleaguesTitle">
      <ColleaguesList currentUserId={currentUserId} refreshKey={added} />
      <NarrowFormCard title={t('addColleagueTitle')}>
        <RegisterForm onCreated={() => setAdded((n) => n + 1)} />
      </NarrowFormCard>
    </StaffPageLayout>
  );
}
