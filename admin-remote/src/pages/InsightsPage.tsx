import { InsightsBoard } from '../features/insights';
import { StaffPageLayout } from './layouts/StaffPageLayout';

/** /secured/insights: the admission season at a glance (a lazy chunk of its own, with chart.js). */
export function InsightsPage() {
  return (
    <StaffPageLayout title="insightsTitle">
      <InsightsBoard />
    </StaffPageLayout>
  );
}
