import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { styled, useCatalog } from 'shared-ui';
import { manageLinkCatalog } from '../manage-link/i18n';
import { useManageLink } from '../hooks/useManageLink';

const ManageLink = styled(Link)`
  color: ${({ theme }) => theme.colors.info};
  font-weight: ${({ theme }) => theme.fontWeights.bold};
`;

/**
 * On the success and thank-you pages: "Change or cancel this booking", a link to the manage page when this browser
 * made the payment `paymentId` (it kept the payment's key); otherwise where to find that link.
 */
export function ManageLinkNotice({ paymentId, children }: { paymentId: string | null; children?: ReactNode }) {
  const { t } = useCatalog(manageLinkCatalog);
  const link = useManageLink(paymentId);
  if (link.kind === 'loading') return null;
  return (
    <section aria-labelledby="manage-link-title" data-print="hide">
      <h2 id="manage-link-title">{t('title')}</h2>
      {/* The page's words about changing (the refund and change terms), above the link to do it. */}
      {children}
      {link.kind === 'ready' ? (
        <p>
          <ManageLink to={link.path}>{t('link')}</ManageLink>
        </p>
      ) : (
        <p>{t('inEmail')}</p>
      )}
    </section>
  );
}
