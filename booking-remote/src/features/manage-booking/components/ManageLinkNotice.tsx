import { Link } from 'react-router-dom';
import { styled } from 'shared-ui';
import { useManageLink } from '../hooks/useManageLink';

const ManageLink = styled(Link)`
  color: ${({ theme }) => theme.colors.info};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

export const NO_LINK_HERE = 'The link to change or cancel this booking is in your confirmation email.';

/**
 * On the success and thank-you pages: "Change or cancel this booking", a link to the manage page when this browser
 * made the payment (`paymentId`); otherwise where to find that link.
 */
export function ManageLinkNotice({ paymentId }: { paymentId: string | null }) {
  const link = useManageLink(paymentId);
  if (link.kind === 'loading') return null;
  return (
    <section aria-labelledby="manage-link-title" data-print="hide">
      <h2 id="manage-link-title">Manage your booking</h2>
      {link.kind === 'ready' ? (
        <p>
          <ManageLink to={link.path}>Change or cancel this booking</ManageLink>
        </p>
      ) : (
        <p>{NO_LINK_HERE}</p>
      )}
    </section>
  );
}
