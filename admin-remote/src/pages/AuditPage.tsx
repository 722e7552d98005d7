import { AuditTrail } from '../features/audit';
import { StaffPageLayout } from './layouts/StaffPageLayout';

/** /secured/audit: who did what and when on the staff side (and parents' changes), read only. */
export function AuditPage() {
  return (
    <StaffPageLayout title="auditTitle">
      <AuditTrail />
    </StaffPageLayout>
  );
}
