import { useState } from 'react';
import { formatRM, schoolName, type ManageView } from 'shared-api';
import { ManageErrorCode } from 'shared-api/manage';
import { Button, useCatalog } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { useCancelBookingMutation, type ManageResult } from '../api/manageApi';
import { manageCatalog } from '../i18n';
import { failureOf } from '../../../lib/apiError';
import { errorText } from '../utils/apiError';
import { useTermsText } from '../../../lib/changeTerms';
import { stillBookedSen, type ManagedChild } from '../utils/children';
import { momentText, quoteText } from '../utils/words';
import { Actions, Details, Note } from './layout';

type Props = {
  token: string;
  /** The booking with the refund a cancel would give now (`cancelQuote`). */
  view: ManageView;
  onOpenChange: (open: boolean) => void;
  onCancelled: (result: ManageResult) => void;
  /** The refund changed since it was shown: reload the booking (the dialog then shows the new quote). */
  onQuoteChanged: () => Promise<unknown>;
  /** Nothing can be changed any more: the page reloads the booking. */
  onClosed: (message: string) => void;
  /** One child of a booking of several (issue 37): only this child's visit and share, the others staying booked. */
  child?: ManagedChild;
};

/**
 * "Cancel booking": names the visit, what was paid and what comes back under the refund policy (and the policy itself),
 * then cancels at that refund.
 */
export function CancelDialog({ token, view, onOpenChange, onCancelled, onQuoteChanged, onClosed, child }: Props) {
  const words = useCatalog(manageCatalog);
  const { t, locale } = words;
  const termsText = useTermsText();
  const [cancel, state] = useCancelBookingMutation();
  const [notice, setNotice] = useState<string | null>(null);
  const quote = child ? child.cancelQuote : view.cancelQuote;
  // What the cancel concerns: that child's share, or what the children still booked paid (a child cancelled alone was refunded apart).
  const paidSen = child ? child.amountSen : stillBookedSen(view);
  const someCancelled = !child && view.children?.some((c) => c.cancelled);
  const busy = state.isLoading;

  const confirm = async () => {
    if (!quote) return;
    setNotice(null);
    try {
      onCancelled(await cancel({ token, expectedRefundSen: quote.amountSen, ...(child && { child: child.position }) }).unwrap());
    } catch (error) {
      const { code } = failureOf(error);
      if (code === ManageErrorCode.CHANGE_CLOSED) return onClosed(errorText(error, words, 'tooLate'));
      if (code === ManageErrorCode.QUOTE_CHANGED) {
        await onQuoteChanged();
        setNotice(errorText(error, words, 'quoteChanged'));
        return;
      }
      setNotice(errorText(error, words, 'cancel.failed'));
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !busy && onOpenChange(open)}
      title={child ? t('cancelOne.title', { name: child.childName }) : t('cancel.title')}
      description={quote ? quoteText(quote, paidSen, words) : undefined}
      size="sm"
      hideCloseButton
      focusKey="cancel"
      footer={
        // One row of the page's own (the dialog's footer wraps by the words' width): keeping comes first, the red one second.
        <Actions>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            {child ? t('cancelOne.keep', { name: child.childName }) : t('cancel.keep')}
          </Button>
          <Button variant="danger" onClick={() => void confirm()} loading={busy} disabled={!quote}>
            {child ? t('cancelOne.button', { name: child.childName }) : t('cancelButton')}
          </Button>
        </Actions>
      }
    >
      {notice && (
        <Note $tone="warning" role="alert">
          <p>{notice}</p>
        </Note>
      )}
      <Details>
        <dt>{t('cancel.visit')}</dt>
        <dd>
          {schoolName(child ? child.selectedSchool : view.school, locale)}
          <br />
          {momentText(view.start, words)}
        </dd>
        <dt>{someCancelled ? t('cancelAll.paid') : t('amountPaid')}</dt>
        <dd>{formatRM(paidSen, locale)}</dd>
        <dt>{t('cancel.refundNow')}</dt>
        <dd>{quote && quote.amountSen > 0 ? formatRM(quote.amountSen, locale) : t('cancel.noRefund')}</dd>
      </Details>
      {child && <p>{t('cancelOne.others')}</p>}
      {!child && view.children && <p>{t('cancelAll.note')}</p>}
      <section aria-labelledby="cancel-terms-title">
        <h3 id="cancel-terms-title">{t('termsTitle')}</h3>
        <p>{termsText(view.terms)}</p>
      </section>
    </Dialog>
  );
}
