import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatRM, schoolName } from 'shared-api';
import type { WaitlistAccept, WaitlistOfferView } from 'shared-api/waitlist';
import { Button, useToast } from 'shared-ui';
import { ConfirmDialog } from 'shared-ui/forms';
import { failureOf } from '../../../lib/apiError';
import { Callout } from '../../../lib/callout';
import { LinkFailure, LinkPanel } from '../../../lib/linkPage';
import { Actions, Details, LinkButton } from '../../../lib/resultLayout';
import { useAcceptWaitlistOfferMutation, useDeclineWaitlistOfferMutation, useGetWaitlistOfferQuery } from '../api/waitlistApi';
import { useWaitlistWords } from '../i18n';
import { SchoolPlaceRows } from '../../../lib/school-place/SchoolPlaceRows';
import { errorText, instant, linkRefusalOf, slotDay, slotSpan } from '../utils/words';


type Props = {
  token: string;
  /** Accepted: the slot is held for this parent with `accept.token`; the page opens the booking dialog at the summary. */
  onAccepted: (offer: WaitlistOfferView, accept: WaitlistAccept) => void;
  /** The mail's "let the slot pass" link (`?decline=1`): the page asks "give up this time?" at once; only a press declines. */
  askDecline?: boolean;
};

/** `/waitlist/offer/:offerToken`: the offer (school, day and time GMT+8, fee, until when), "Book and pay", "No thanks". */
export function WaitlistOffer({ token, onAccepted, askDecline = false }: Props) {
  const words = useWaitlistWords();
  const { t, locale } = words;
  const toast = useToast();
  const query = useGetWaitlistOfferQuery(token, { refetchOnMountOrArgChange: true, refetchOnFocus: true });
  const [accept, accepting] = useAcceptWaitlistOfferMutation();
  const [decline, declining] = useDeclineWaitlistOfferMutation();
  const [confirmDecline, setConfirmDecline] = useState(false);
  const [declined, setDeclined] = useState(false);
  const title = t('offerTitle');
  const doDecline = async () => {
    try {
      await decline(token).unwrap();
      setConfirmDecline(false);
      setDeclined(true);
      toast.success(t('declined'));
    } catch (error) {
      setConfirmDecline(false);
      if (failureOf(error).status === 409) void query.refetch();
      toast.error(failureOf(error).status === 409 ? t('offer.notLive') : errorText(error, words, 'declineFailed'));
    }
  };
  // Opening the link never declines (a mail scanner or a link preview would give the slot away): it asks, once.
  const asked = useRef(false);
  useEffect(() => {
    if (!askDecline || asked.current || query.data?.state !== 'live') return;
    asked.current = true;
    setConfirmDecline(true);
  }, [askDecline, query.data?.state]);

  if (query.isLoading) return <LinkPanel id="offer-title" title={title} loading={t('loading')} />;
  const timetable = (primary: boolean) => (
    <LinkButton as={Link} to="/" $primary={primary}>
      {t('seeTimetable')}
    </LinkButton>
  );
  if (!query.data) {
    const refused = linkRefusalOf(query.error);
    return (
      <LinkPanel id="offer-title" title={title}>
        <LinkFailure refusal={refused && t(refused)} failure={errorText(query.error, words, 'loadFailed')} onRetry={() => void query.refetch()} />
        <Actions>{timetable(true)}</Actions>
      </LinkPanel>
    );
  }

  const offer = query.data;
  const state = declined ? 'declined' : offer.state;
  const details = (
    <Details>
      <dt>{t('school')}</dt>
      <dd>{schoolName(offer.school, locale)}</dd>
      <SchoolPlaceRows school={offer.school} />
      {offer.visitor.childName && (
        <>
          <dt>{t('child')}</dt>
          <dd>{offer.visitor.childYear ? t('childValue', { name: offer.visitor.childName, year: offer.visitor.childYear }) : offer.visitor.childName}</dd>
        </>
      )}
      <dt>{t('date')}</dt>
      <dd>{slotDay(offer.slot, locale)}</dd>
      <dt>{t('time')}</dt>
      <dd>{slotSpan(offer.slot, words)}</dd>
      {offer.children > 1 && (
        <>
          <dt>{t('placesHeld')}</dt>
          <dd>{t('placesHeldValue', { count: offer.children })}</dd>
        </>
      )}
      <dt>{offer.children > 1 ? t('feePerChild') : t('fee')}</dt>
      <dd>{formatRM(offer.feeSen, locale)}</dd>
      {(state === 'live' || state === 'waiting') && (
        <>
          <dt>{t('until')}</dt>
          <dd>{instant(offer.expiresAt, locale)} (GMT+8)</dd>
        </>
      )}
    </Details>
  );

  const bookAndPay = async () => {
    try {
      onAccepted(offer, await accept(token).unwrap());
    } catch (error) {
      if (failureOf(error).status === 409) {
        toast.error(t('offer.notLive'));
        void query.refetch();
      } else toast.error(errorText(error, words, 'acceptFailed'));
    }
  };

  if (state !== 'live') {
    const text =
      state === 'waiting'
        ? t('offer.waiting', { from: instant(offer.startsAt, locale) })
        : state === 'booked'
          ? t('offer.booked')
          : state === 'declined'
            ? t('offer.declined')
            : t('offer.expired');
    return (
      <LinkPanel id="offer-title" title={title}>
        <Callout as="p" role="status" $tone={state === 'expired' ? 'warning' : 'info'}>
          {text}
        </Callout>
        {details}
        {(state === 'expired' || state === 'declined') && <p>{t('offer.expiredNext')}</p>}
        <Actions>
          {state === 'waiting' && <Button onClick={() => void query.refetch()}>{t('checkAgain')}</Button>}
          {timetable(state !== 'waiting')}
        </Actions>
      </LinkPanel>
    );
  }

  return (
    <LinkPanel id="offer-title" title={title}>
      <Callout as="p" role="status">{declining.isLoading ? t('declining') : t('offerLead', { until: instant(offer.expiresAt, locale) })}</Callout>
      {details}
      <Actions>
        <Button variant="secondary" onClick={() => setConfirmDecline(true)} disabled={accepting.isLoading}>
          {t('noThanks')}
        </Button>
        <Button onClick={() => void bookAndPay()} loading={accepting.isLoading} disabled={accepting.isLoading}>
          {t('bookAndPay')}
        </Button>
      </Actions>
      <ConfirmDialog
        open={confirmDecline}
        onOpenChange={setConfirmDecline}
        title={t('declineConfirmTitle')}
        message={t('declineConfirm')}
        confirmLabel={t('declineButton')}
        cancelLabel={t('keepOffer')}
        onConfirm={() => void doDecline()}
        busy={declining.isLoading}
        tone="danger"
      />
    </LinkPanel>
  );
}
