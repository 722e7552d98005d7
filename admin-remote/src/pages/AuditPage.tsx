import { Link } from 'react-router-dom';
import { Heading, Stack } from 'shared-ui';
import { AuditTrail } from '../features/audit';

/** /secured/audit: who did what and when on the staff side (and parents' changes), read only. */
export function AuditPage() {
  return (
    <Stack>
      <Heading level={1}>Audit trail</Heading>
      <p>
        <Link to="/secured/dashboard">Back to the dashboard</Link>
      </p>
      <AuditTrail />
    </Stack>
  );
}
