import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  api,
  brand,
  DEFAULT_LOCALE,
  DEFAULT_PAYMENT_METHOD,
  feeOfSchool,
  HOLD_MINUTES,
  PAYMENT_POLL_MS,
  useAppDispatch,
  CHECKOUT_MAX_CHILDREN,
  type ConsentInput,
  type SiblingDetailsInput,
  type VisitorDetails,
  type VisitorDetailsInput,
} from 'shared-api';
import { checkoutPrice } from 'shared-api/sibling-price';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { currentNoticeVersion } from 'shared-api/privacy';
import { formatPhone } from 'shared-api/phone';
import { browserNavigation } from '../../../lib/browserNavigation';
import { withHoldChallenge } from '../../../lib/hold-limit/holdLimit';
import { rememberPayment } from '../../../lib/paymentKeys';
import { useGetPaymentStatusQuery } from '../../../lib/paymentStatusApi';
import { holdLimitCatalog } from '../../../lib/hold-limit/i18n';
import { useCommonRefusals } from '../../../lib/refusals/i18n';
import {
  useCancelPaymentMutation,
  useGetPricingQuery,
  useInitiatePaymentMutation,
  useReleaseSlotMutation,
  useReserveSlotMutation,
} from '../api/bookingApi';
import { useMachine } from '../hooks/useMachine';
import { useNow } from '../hooks/useNow';
import { dialogCatalog, type DialogMessageId } from '../i18n';
import { bookingFlow, isPolling, openFlow, paymentIdOf, type FlowEffect, type FlowEvent, type Step, type ToastText } from '../model/bookingFlow';
import { apiErrorText, slotWhenValues } from '../utils/dialogText';
import { clearDraft, loadDraft, saveDraft, type BookingDetails } from '../utils/bookingDraft';
import { activeReservation, createReservation } from '../utils/reservation';
import { DETAILS_FORM_ID, DetailsStep, type SchoolOption, type TypedNow } from './DetailsStep';
import type { DetailsFormValues } from '../siblings/detailsResolver';
import { ProcessingStep, type ProcessingView } from './ProcessingStep';
import { SummaryStep } from './SummaryStep';

const CheckingNotice = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[3]};
  color: ${({ theme }) => theme.colors.textMuted};
`;

// The chosen time went while the form was filled: said once, where the parent looks, with the ways on.
const TimeGone = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space[3]};
  margin: 0 0 ${({ theme }) => theme.space[4]};
  padding: ${({ theme }) => theme.space[3]};
  border-left: 4px solid ${({ theme }) => theme.colors.warning};
  background: ${({ theme }) => theme.colors.warningSubtle};
  p {
    margin: 0;
  }
`;

const TimeChoices = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space[2]};
  margin: 0;
  padding: 0;
  list-style: none;
`;

/** `placesLeft`: a time that seats several children (issue 37), its free places when chosen. */
export type DialogSlot = { id: number; date: string; startTime: string; endTime: string; placesLeft?: number };

/**
 * The three free times nearest to a time that went (by minutes from it: the same day first, then the days around), of
 * those with a place for each child typed (a time of one place takes one child).
 */
function nearestTimes(free: DialogSlot[], gone: DialogSlot, children = 1): DialogSlot[] {
  const at = (slot: DialogSlot) => Date.parse(`${slot.date}T${slot.startTime}:00Z`) / 60_000;
  return free
    .filter((other) => other.id !== gone.id && (other.placesLeft ?? 1) >= children)
    .sort((a, b) => Math.abs(at(a) - at(gone)) - Math.abs(at(b) - at(gone)))
    .slice(0, 3);
}

const titles: Record<Step, DialogMessageId> = {
  details: 'titleDetails',
  payment: 'titlePayment',
  processing: 'titleProcessing',
};

type Props = {
  slot: DialogSlot;
  onClose: () => void;
  /** What the parent typed before (booking the same time again after cancelling on the gateway), brothers and sisters too. */
  initialDetails?: Partial<VisitorDetailsInput> & { siblings?: SiblingDetailsInput[] };
  /** The consent given before (booking the same time again): kept while its notice is the current one. */
  initialConsent?: ConsentInput | null;
  /**
   * A waitlist offer the parent accepted (issue 26): the slot is already held for them (`token`), their details are
   * the entry's and their consent was given on joining; the dialog opens at the payment summary and pays as usual.
   */
  offer?: {
    details: VisitorDetails;
    feeSen: number;
    token: string;
    expiresAt: string;
    /** Places the offer holds together at this time (issue 37): the parent may name up to this many children. */
    children?: number;
  };
  /** Once the time is gone: the free times, the nearest three offered in place (choosing one opens the dialog on it). */
  freeTimes?: DialogSlot[];
  onChooseTime?: (slot: DialogSlot, typed: { details?: Partial<VisitorDetailsInput> & { siblings?: SiblingDetailsInput[] }; consent: ConsentInput | null }) => void;
  /** Once the time is gone: the waitlist form for its day, with what was typed. */
  onJoinWaitlist?: (typed: Partial<VisitorDetailsInput> | undefined) => void;
  /** The timetable's list, read again since the dialog opened, no longer offers this time (taken by someone else). */
  unlisted?: boolean;
};

/** The visitor's details of a booking, as the details step shows them again. */
const visitorDetailsOf = ({ visitorName, visitorEmail, visitorContactNo, selectedSchool, childName, childYear, siblings }: BookingDetails): VisitorDetailsInput & { siblings?: SiblingDetailsInput[] } => ({
  visitorName,
  visitorEmail,
  visitorContactNo,
  selectedSchool,
  childName,
  childYear,
  ...(siblings?.length && { siblings }),
});

/**
 * The three-step booking dialog: renders the booking flow's state (model/bookingFlow.ts) and runs its effects (the
 * calls, toasts, draft and navigation). Mount it afresh (a new key) on every opening so form and step reset.
 */
export function BookingDialog({ slot, onClose, initialDetails, initialConsent, offer, freeTimes = [], onChooseTime, onJoinWaitlist, unlisted = false }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const common = useCommonRefusals();
  const holdLimit = useCatalog(holdLimitCatalog).t;
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const pricing = useGetPricingQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reserveSlot] = useReserveSlotMutation();
  const [releaseSlot] = useReleaseSlotMutation();
  const [initiatePayment] = useInitiatePaymentMutation();
  const [cancelPayment] = useCancelPaymentMutation();
  const slotOfBooking = { id: slot.id, date: slot.date, startTime: slot.startTime };

  // Server pricing overrides the configured fees (the spec's fallback); a school on neither list: unknownSchoolFeeSen.
  const schools: SchoolOption[] =
    pricing.data && pricing.data.length > 0
      ? pricing.data.map((p) => ({ name: p.schoolName, feeSen: p.totalFee }))
      : brand.schools.map((s) => ({ name: s.name, feeSen: s.feeSen }));
  const feeFor = (school: string) => schools.find((s) => s.name === school)?.feeSen ?? feeOfSchool(school);

  const say = (text: ToastText) => ('id' in text ? t(text.id, text.values) : apiErrorText(text.failure, { t, locale, common }, text.fallback));

  const run = (effect: FlowEffect, send: (event: FlowEvent) => void) => {
    const checking = (on: boolean) => send({ type: 'checking', checking: on });
    switch (effect.type) {
      case 'releaseEarlierHold': {
        const previous = loadDraft().reservedSlot;
        if (previous && previous.slotId !== slot.id && activeReservation(previous)) void releaseSlot({ slotId: previous.slotId, token: previous.token });
        return;
      }
      case 'reserve': {
        const { attempt, after } = effect;
        void withHoldChallenge((proofOfWork) => reserveSlot({ slotId: slot.id, minutes: HOLD_MINUTES, proofOfWork }).unwrap(), checking).then(
          (held) => send({ type: 'held', attempt, after, reservation: createReservation(held.slotId, held.token, Date.now(), HOLD_MINUTES, held.expiresAt) }),
          (error: unknown) => send({ type: 'reserveFailed', attempt, after, error }),
        );
        return;
      }
      case 'initiate': {
        const { attempt, booking, consent, holdToken } = effect;
        void withHoldChallenge(
          (proofOfWork) =>
            initiatePayment({
              slotId: booking.slot.id,
              visitorName: booking.visitorName,
              visitorEmail: booking.visitorEmail,
              visitorContactNo: booking.visitorContactNo,
              selectedSchool: booking.selectedSchool,
              childName: booking.childName,
              childYear: booking.childYear,
              fee: booking.fee,
              slotDate: booking.slot.date,
              slotStartTime: booking.slot.startTime,
              preferredPaymentMethod: booking.preferredPaymentMethod,
              // Brothers and sisters at the same time: one seat each under this hold, one payment (issue 37).
              ...(booking.siblings?.length && { siblings: booking.siblings }),
              holdToken,
              proofOfWork,
              consent,
              // The parent's language for their mails, invites and reminders; absent means English (the server's default).
              ...(locale !== DEFAULT_LOCALE && { locale }),
            }).unwrap(),
          checking,
        ).then(
          (session) => send({ type: 'initiated', attempt, session }),
          (error: unknown) => send({ type: 'initiateFailed', attempt, error }),
        );
        return;
      }
      case 'release':
        void releaseSlot({ slotId: effect.reservation.slotId, token: effect.reservation.token });
        return;
      case 'cancelPayment': {
        const cancelling = cancelPayment({ id: effect.id, key: effect.key });
        if (effect.sayIfFails) void cancelling.unwrap().catch(() => toast.error(t('cancellationFailed')));
        return;
      }
      case 'saveDraft':
        saveDraft(effect.patch);
        return;
      case 'clearDraft':
        clearDraft();
        return;
      case 'toast':
        if (effect.tone === 'success') toast.success(say(effect.text));
        else toast.error(say(effect.text));
        return;
      case 'refreshSlots':
        dispatch(api.util.invalidateTags(['PublicSlots']));
        return;
      case 'checkout':
        rememberPayment(effect.session);
        browserNavigation.assign(effect.session.checkoutUrl);
        return;
      case 'close':
        onClose();
        return;
      case 'thankYou': {
        const { result } = effect;
        navigate('/thankyou', {
          state: {
            payment: result.payment,
            booking: result.booking,
            ...(result.owner && { emailStatus: result.emailStatus, emailTimeouts: result.emailTimeouts }),
          },
        });
        return;
      }
      case 'reload':
        browserNavigation.reload();
        return;
    }
  };

  const [flow, send] = useMachine(
    bookingFlow,
    () =>
      openFlow(slot.id, {
        typed: offer?.details ?? initialDetails,
        consent: initialConsent?.noticeVersion === currentNoticeVersion() ? initialConsent : undefined,
        offer: offer && {
          booking: { ...offer.details, preferredPaymentMethod: DEFAULT_PAYMENT_METHOD, slot: slotOfBooking, fee: offer.feeSen },
          consent: { noticeVersion: currentNoticeVersion(), language: locale },
          reservation: createReservation(slot.id, offer.token, Date.now(), HOLD_MINUTES, offer.expiresAt),
        },
      }),
    run,
  );

  // Typed before (another time, or the same after the gateway): the phone as the parent writes it, not as stored.
  const typedBefore = initialDetails && { ...initialDetails, visitorContactNo: formatPhone(initialDetails.visitorContactNo) ?? initialDetails.visitorContactNo };

  const otherTimes = flow.gone ? nearestTimes(freeTimes, slot, 1 + ((flow.booking ?? flow.typed)?.siblings?.length ?? 0)) : [];
  const paymentId = paymentIdOf(flow.session);
  const polling = isPolling(flow);
  // The payment's key: only this browser has it, and with it the server answers with the whole receipt and lets it cancel.
  const status = useGetPaymentStatusQuery({ id: paymentId, key: flow.session?.holdToken ?? null }, { skip: !polling, pollingInterval: PAYMENT_POLL_MS });
  const now = useNow(flow.step !== 'details');

  useEffect(() => browserNavigation.onReturn(() => send({ type: 'returned' })), [send]);

  // Taken by someone else while the parent types: said at once, in place, with what is typed so far kept.
  const readTyped = useRef<(() => TypedNow) | null>(null);
  const typedNow = () => {
    const typed = readTyped.current?.();
    const consent = typed?.consented ? { noticeVersion: currentNoticeVersion(), language: locale, whatsapp: typed.whatsapp } : flow.consent;
    return { details: typed?.details ?? flow.typed, consent };
  };
  useEffect(() => {
    if (!unlisted) return;
    const { details, consent } = typedNow();
    send({ type: 'unlisted', typed: details ?? {}, consent, now: Date.now() });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the list stops offering the time
  }, [unlisted, send]);

  // Status every 2 s once back from the gateway: the flow decides what each answer means.
  const result = polling ? status.data : undefined;
  useEffect(() => {
    if (result) send({ type: 'status', result });
  }, [result, send]);

  // The session countdown: at zero the payment fails as expired.
  const sessionRemaining = flow.session ? Math.max(0, Date.parse(flow.session.expiresAt) - now) : null;
  const expired = polling && sessionRemaining === 0;
  useEffect(() => {
    if (expired) send({ type: 'sessionExpired' });
  }, [expired, send]);

  const onDetailsValid = ({ siblings, ...details }: DetailsFormValues, consent: ConsentInput) => {
    // Several children: each school's fee less its sibling discount (what the server charges, brand.config.json).
    const fee = siblings.length > 0 ? (checkoutPrice([details, ...siblings])?.totalSen ?? feeFor(details.selectedSchool)) : feeFor(details.selectedSchool);
    send({
      type: 'detailsSubmitted',
      details,
      consent,
      now: Date.now(),
      booking: { ...details, ...(siblings.length > 0 && { siblings }), preferredPaymentMethod: DEFAULT_PAYMENT_METHOD, slot: slotOfBooking, fee },
    });
  };
  const backOut = () => send({ type: 'backOut' });
  const cancelProcessing = () => send({ type: 'cancelProcessing' });

  const view: ProcessingView = !flow.session ? 'preparing' : !polling ? 'redirecting' : status.isError ? 'error' : 'processing';

  const footer =
    flow.step === 'details' && flow.gone && !flow.gone.fewer ? (
      // This time cannot be booked now: the ways on are in the notice above the form.
      <Button variant="secondary" onClick={backOut}>
        {t('cancel')}
      </Button>
    ) : flow.step === 'details' ? (
      <>
        <Button variant="secondary" onClick={backOut}>
          {t('cancel')}
        </Button>
        <Button type="submit" form={DETAILS_FORM_ID} loading={flow.reserving} disabled={flow.reserving}>
          {t('continueToPayment')}
        </Button>
      </>
    ) : flow.step === 'payment' ? (
      <>
        <Button variant="secondary" onClick={() => send({ type: 'backToDetails' })}>
          {t('backToDetails')}
        </Button>
        <Button onClick={() => send({ type: 'proceedToPayment', now: Date.now() })}>{t('proceedToPayment')}</Button>
      </>
    ) : view === 'error' ? (
      <>
        <Button variant="secondary" onClick={cancelProcessing}>
          {t('cancel')}
        </Button>
        <Button onClick={() => send({ type: 'retry', retriesUsed: loadDraft().retryCount })}>{t('retry')}</Button>
      </>
    ) : (
      <Button variant="secondary" onClick={cancelProcessing}>
        {t('cancel')}
      </Button>
    );

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) backOut();
      }}
      title={t(titles[flow.step])}
      description={flow.step === 'details' ? t('slotWhen', slotWhenValues(slot.date, slot.startTime, locale)) : undefined}
      footer={footer}
      // Each step opens on its first field (details) or its heading (summary, processing), never on Close.
      focusKey={`${flow.step}:${flow.editing ?? ''}`}
      focusTarget={flow.step === 'details' && flow.editing ? `[name="${flow.editing}"]` : undefined}
    >
      {flow.checking && <CheckingNotice role="status">{holdLimit('checking')}</CheckingNotice>}
      {flow.step === 'details' && flow.gone && (
        <TimeGone aria-labelledby="time-gone-text">
          <p id="time-gone-text" role="alert">
            <strong>{say(flow.gone.text)}</strong> {t(flow.gone.fewer ? 'goneFewer' : 'goneKept')}
          </p>
          {otherTimes.length > 0 && onChooseTime && (
            <>
              <p>{t('goneNearest')}</p>
              <TimeChoices>
                {otherTimes.map((other) => (
                  <li key={other.id}>
                    <Button variant="secondary" fullWidth onClick={() => onChooseTime(other, typedNow())}>
                      {t('slotWhen', slotWhenValues(other.date, other.startTime, locale))}
                    </Button>
                  </li>
                ))}
              </TimeChoices>
            </>
          )}
          {flow.gone.waitlist && onJoinWaitlist && (
            <Button variant="secondary" onClick={() => onJoinWaitlist(typedNow().details)}>
              {t('goneWaitlist')}
            </Button>
          )}
        </TimeGone>
      )}
      {flow.step === 'details' && (
        <DetailsStep
          schools={schools}
          pricingLoading={pricing.isLoading}
          pricingFailed={pricing.isError}
          defaultValues={flow.booking ? visitorDetailsOf(flow.booking) : typedBefore}
          // A waitlist offer holds its entry's places (one per child); a time with free places asks how many children.
          maxChildren={offer ? Math.min(CHECKOUT_MAX_CHILDREN, offer.children ?? 1) : Math.min(CHECKOUT_MAX_CHILDREN, slot.placesLeft ?? 1)}
          consented={flow.consent !== null}
          whatsapp={flow.consent?.whatsapp ?? false}
          onValid={onDetailsValid}
          readTyped={readTyped}
        />
      )}
      {flow.step === 'payment' && flow.booking && (
        <SummaryStep details={flow.booking} reservation={flow.reservation} now={now} onEdit={(field) => send({ type: 'backToDetails', field })} />
      )}
      {flow.step === 'processing' && <ProcessingStep view={view} remainingMs={sessionRemaining} />}
    </Dialog>
  );
}
