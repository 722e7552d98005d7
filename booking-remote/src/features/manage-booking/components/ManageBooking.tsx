import { useState } from 'react';
import { Link } from 'react-router-dom';
import { brand, formatRM, schoolName } from 'shared-api';
import { Button, useCatalog, useToast } from 'shared-ui';
import type { ManageResult } from '../api/manageApi';
import { useManagedBooking } from '../hooks/useManagedBooking';
import { manageCatalog, type ManageTextId } from '../i18n';
import { failureOf } from '../../../lib/apiError';
import { LinkFailure, LinkPanel } from '../../../lib/linkPage';
import { errorText } from '../utils/apiError';
import { useTermsText } from '../../../lib/changeTerms';
import { cancellableAlone } from '../utils/children';
import { dayOf, refundText, timeSpan } from '../utils/words';
import { DeadlineSoon } from './DeadlineSoon';
import { BookingSummary } from './BookingSummary';
import { CancelDialog } from './CancelDialog';
import { Actions, Details, ELEMENT, LinkButton, Note, Sentence } from './layout';
import { RescheduleDialog } from './RescheduleDialog';
import { WhatsAppChoice } from './WhatsAppChoice';
import { VisitDocuments } from '../documents';

// A refused link (unknown, expired, too many tries) shows the server's words and nothing else.
const linkRefusals: Record<number, ManageTextId> = { 404: 'invalidLink', 410: 'expiredLink', 429: 'tooManyTries' };

/** `/booking/manage/:token`: the parent's booking, with reschedule and cancel until the cut-off. */
export function ManageBooking({ token }: { token: string }) {
  const toast = useToast();
  const words = useCatalog(manageCatalog);
  const { t, locale } = words;
  const termsText = useTermsText();
  const title = t('title');
  const { query, replace } = useManagedBooking(token);
  // A number: the child (its position) of a booking of several being cancelled alone.
  const [open, setOpen] = useState<'reschedule' | 'cancel' | number | null>(null);

  if (query.isLoading) return <LinkPanel id="manage-title" title={title} loading={t('loading')} />;

  if (!query.data) {
    const { status } = failureOf(query.error);
    const refused = typeof status === 'number' ? linkRefusals[status] : undefined;
    return (
      <LinkPanel id="manage-title" title={title}>
        <LinkFailure
          refusal={refused && errorText(query.error, words, refused)}
          failure={errorText(query.error, words, 'loadFailed')}
          onRetry={() => void query.refetch()}
        />
      </LinkPanel>
    );
  }

  const { view } = query.data;

  // Cancelled: what was cancelled, the refund and where it stands, and the way on (book another time).
  if (view.state === 'cancelled') {
    return (
      <LinkPanel id="manage-title" title={title}>
        <p role="status">
          <strong>{t('cancelled')}</strong>
        </p>
        <section aria-labelledby="manage-cancelled-title">
          <h2 id="manage-cancelled-title">{t('cancelled.what')}</h2>
          <Details>
            <dt>{t('school')}</dt>
            <dd>{schoolName(view.school, locale)}</dd>
            <dt>{t('date')}</dt>
            <dd>{dayOf(view.start, words)}</dd>
            <dt>{t('time')}</dt>
            <dd>{t('timeGmt', { time: timeSpan(view.start, view.end, words) })}</dd>
            <dt>{t('reference')}</dt>
            <dd>{view.reference}</dd>
            <dt>{t('amountPaid')}</dt>
            <dd>{formatRM(view.amountPaidSen, locale)}</dd>
          </Details>
        </section>
        <p>{view.refund ? refundText(view.refund, words) : t('cancelled.noRefund')}</p>
        <Actions>
          <LinkButton as={Link} to="/" $primary>
            {t('bookAnother')}
          </LinkButton>
        </Actions>
      </LinkPanel>
    );
  }

  if (view.state === 'over') {
    return (
      <LinkPanel id="manage-title" title={title}>
        <p role="alert">{t('expiredLink')}</p>
      </LinkPanel>
    );
  }

  // The child being cancelled alone, while it may still be (another child staying booked).
  const aloneChild = typeof open === 'number' ? cancellableAlone(view).find((child) => child.position === open) : undefined;
  const done = (result: ManageResult, message: string) => {
    replace(result);
    setOpen(null);
    toast.success(message);
  };
  // The cut-off passed (or the booking changed elsewhere) while the page was open: show the booking as it is now.
  const closed = (message: string) => {
    setOpen(null);
    toast.error(message);
    void query.refetch();
  };

  return (
    <LinkPanel id="manage-title" title={title}>
      <BookingSummary view={view} checklist={view.state === 'booked' ? <VisitDocuments token={token} /> : undefined} />
      {view.canChange ? (
        <section aria-labelledby="manage-change-title">
          <h2 id="manage-change-title">{t('changeTitle')}</h2>
          <p>{termsText(view.terms)}</p>
          <DeadlineSoon terms={view.terms} words={words} />
          <Actions>
            {/* The page's main action first; the red one never leads. */}
            <Button onClick={() => setOpen('reschedule')}>
              {t('changeButton')}
            </Button>
            <Button variant="danger" onClick={() => setOpen('cancel')} disabled={!view.cancelQuote}>
              {t('cancelButton')}
            </Button>
          </Actions>
          {/* A booking of several children (issue 37): each child may be cancelled alone while another stays booked. */}
          {cancellableAlone(view).length > 0 && (
            <Actions>
              {cancellableAlone(view).map((child) => (
                <Button key={child.position} variant="secondary" onClick={() => setOpen(child.position)} disabled={!child.cancelQuote}>
                  {t('cancelOne', { name: child.childName })}
                </Button>
              ))}
            </Actions>
          )}
        </section>
      ) : (
        <Note $tone="warning" role="note" aria-label={t('changesLabel')}>
          <p>{t('tooLate')}</p>
          <p>
            <Sentence text={t('supportEmail', { email: ELEMENT })}>
              <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
            </Sentence>
          </p>
        </Note>
      )}
      {view.state === 'booked' && <WhatsAppChoice token={token} view={view} onStopped={replace} />}
      {open === 'reschedule' && view.canChange && (
        <RescheduleDialog
          token={token}
          view={view}
          onOpenChange={(next) => setOpen(next ? 'reschedule' : null)}
          onMoved={(result) => done(result, t('rescheduled'))}
          onClosed={closed}
        />
      )}
      {open === 'cancel' && view.canChange && (
        <CancelDialog
          token={token}
          view={view}
          onOpenChange={(next) => setOpen(next ? 'cancel' : null)}
          onCancelled={(result) => done(result, t('cancelledNow'))}
          onQuoteChanged={() => query.refetch()}
          onClosed={closed}
        />
      )}
      {typeof open === 'number' && view.canChange && aloneChild && (
        <CancelDialog
          token={token}
          view={view}
          child={aloneChild}
          onOpenChange={(next) => setOpen(next ? open : null)}
          onCancelled={(result) => done(result, t('cancelOne.done', { name: aloneChild.childName }))}
          onQuoteChanged={() => query.refetch()}
          onClosed={closed}
        />
      )}
    </LinkPanel>
  );
}
