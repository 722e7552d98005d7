import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  api,
  brand,
  DEFAULT_LOCALE,
  DEFAULT_PAYMENT_METHOD,
  ErrorCode,
  feeOfSchool,
  HOLD_MINUTES,
  HOLD_TIME_CAP_MINUTES,
  HOLD_TIME_WINDOW_MINUTES,
  MAX_PAYMENT_RETRIES,
  PAYMENT_POLL_MS,
  useAppDispatch,
  type ConsentInput,
  type PaymentSession,
  type PaymentStatusResult,
  type VisitorDetails,
  type VisitorDetailsInput,
} from 'shared-api';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { currentNoticeVersion } from 'shared-api/privacy';
import { browserNavigation } from '../../../lib/browserNavigation';
import { rememberPayment } from '../../../lib/paymentKeys';
import { useGetPaymentStatusQuery } from '../../../lib/paymentStatusApi';
import {
  useCancelPaymentMutation,
  useGetPricingQuery,
  useInitiatePaymentMutation,
  useReleaseSlotMutation,
  useReserveSlotMutation,
} from '../api/bookingApi';
import { useNow } from '../hooks/useNow';
import { dialogCatalog, type DialogMessageId } from '../i18n';
import { apiErrorText, slotWhenValues } from '../utils/dialogText';
import { clearDraft, loadDraft, saveDraft, type BookingDetails } from '../utils/bookingDraft';
import { failureOf } from '../../../lib/apiError';
import { holdChallengeOf, isHoldLimit, withHoldChallenge } from '../../../lib/hold-limit/holdLimit';
import { holdLimitCatalog } from '../../../lib/hold-limit/i18n';
import { useCommonRefusals } from '../../../lib/refusals/i18n';
import { activeReservation, createReservation, type SlotReservation } from '../utils/reservation';
import { DETAILS_FORM_ID, DetailsStep, type SchoolOption } from './DetailsStep';
import { ProcessingStep, type ProcessingView } from './ProcessingStep';
import { SummaryStep, type EditableField } from './SummaryStep';

/** 409 from reserve or payment: this free time is being offered to the waitlist first (issue 26's contract). */
const WAITLIST_FIRST = 'WAITLIST_FIRST';

const CheckingNotice = styled.p`
  margin: 0 0 ${({ theme }) => theme.space[3]};
  color: ${({ theme }) => theme.colors.textMuted};
`;

export type DialogSlot = { id: number; date: string; startTime: string; endTime: string };

type Step = 'details' | 'payment' | 'processing';

const titles: Record<Step, DialogMessageId> = {
  details: 'titleDetails',
  payment: 'titlePayment',
  processing: 'titleProcessing',
};

type Props = {
  slot: DialogSlot;
  onClose: () => void;
  /** What the parent typed before (booking the same time again after cancelling on the gateway). */
  initialDetails?: Partial<VisitorDetailsInput>;
  /**
   * A waitlist offer the parent accepted (issue 26): the slot is already held for them (`token`), their details are
   * the entry's and their consent was given on joining; the dialog opens at the payment summary and pays as usual.
   */
  offer?: { details: VisitorDetails; feeSen: number; token: string; expiresAt: string };
  /** The chosen time was taken meanwhile (the dialog has closed): what the parent had typed, for the waitlist form. */
  onSlotTaken?: (details: Partial<VisitorDetailsInput> | undefined) => void;
};

/** The three-step booking dialog; mount it afresh (a new key) on every opening so form and step reset. */
export function BookingDialog({ slot, onClose, initialDetails, offer, onSlotTaken }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const words = { t, locale, common: useCommonRefusals() };
  const holdLimit = useCatalog(holdLimitCatalog).t;
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<Step>(offer ? 'payment' : 'details');
  // The field the parent came back from the summary to fix (focus lands on it).
  const [editing, setEditing] = useState<EditableField | null>(null);
  const [busy, setBusy] = useState(false);
  // Solving a hold-limit challenge (one connection holding many slots, e.g. a carrier NAT on enrolment day).
  const [checking, setChecking] = useState(false);
  const [details, setDetails] = useState<BookingDetails | null>(() =>
    offer
      ? {
          ...offer.details,
          preferredPaymentMethod: DEFAULT_PAYMENT_METHOD,
          slot: { id: slot.id, date: slot.date, startTime: slot.startTime },
          fee: offer.feeSen,
        }
      : null,
  );
  // The parent's consent to the privacy notice, sent with the payment (no payment is recorded without it).
  const [consent, setConsent] = useState<ConsentInput | null>(() => (offer ? { noticeVersion: currentNoticeVersion(), language: locale } : null));
  const [reservation, setReservation] = useState<SlotReservation | null>(() =>
    offer ? createReservation(slot.id, offer.token, Date.now(), HOLD_MINUTES, offer.expiresAt) : null,
  );
  const [session, setSession] = useState<PaymentSession | null>(null);
  const finished = useRef(false);
  // The details last submitted (for the waitlist form when the time was taken meanwhile).
  const typed = useRef<VisitorDetails | null>(offer?.details ?? null);
  // Bumped whenever the parent backs out, so an answer that arrives afterwards is not acted on.
  const flow = useRef(0);

  const pricing = useGetPricingQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reserveSlot] = useReserveSlotMutation();
  const [releaseSlot] = useReleaseSlotMutation();
  const [initiatePayment] = useInitiatePaymentMutation();
  const [cancelPayment] = useCancelPaymentMutation();

  const paymentId = session?.paymentId || session?.id || '';
  // The payment's key: only this browser has it, and with it the server answers with the whole receipt and lets it cancel.
  const paymentKey = session?.holdToken ?? null;
  // The payment the browser last left for the gateway with, and the one it came back from (Back restores this page as it was).
  const leftWith = useRef<string | null>(null);
  const [returnedTo, setReturnedTo] = useState<string | null>(null);
  // Asked about only once the parent is back: before the browser has left, a status call would only spend the gateway check.
  const polling = step === 'processing' && paymentId !== '' && returnedTo === paymentId;
  const status = useGetPaymentStatusQuery({ id: paymentId, key: paymentKey }, { skip: !polling, pollingInterval: PAYMENT_POLL_MS });
  const now = useNow(step !== 'details');

  // Server pricing overrides the configured fees (the spec's fallback); a school on neither list: unknownSchoolFeeSen.
  const schools: SchoolOption[] =
    pricing.data && pricing.data.length > 0
      ? pricing.data.map((p) => ({ name: p.schoolName, feeSen: p.totalFee }))
      : brand.schools.map((s) => ({ name: s.name, feeSen: s.feeSen }));
  const feeFor = (school: string) => schools.find((s) => s.name === school)?.feeSen ?? feeOfSchool(school);

  useEffect(() => {
    // A new opening starts clean: a previous draft's hold on another slot is let go.
    const previous = loadDraft().reservedSlot;
    if (previous && previous.slotId !== slot.id && activeReservation(previous)) {
      void releaseSlot({ slotId: previous.slotId, token: previous.token });
    }
    clearDraft();
    if (offer && reservation) saveDraft({ reservedSlot: reservation, currentBooking: details, paymentStatus: 'idle' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on opening only
  }, [slot.id, releaseSlot]);

  const release = () => {
    if (reservation) void releaseSlot({ slotId: reservation.slotId, token: reservation.token });
    setReservation(null);
    saveDraft({ reservedSlot: null });
  };

  const close = () => {
    finished.current = true;
    clearDraft();
    onClose();
  };

  /** SLOT_RESERVED / SLOT_NOT_AVAILABLE / HOLD_TIME_USED (this slot is not to be had now): say so, refresh the list and close; true when handled. */
  const handleSlotTaken = (error: unknown): boolean => {
    const { code } = failureOf(error);
    if (code !== ErrorCode.SLOT_RESERVED && code !== ErrorCode.SLOT_NOT_AVAILABLE && code !== ErrorCode.HOLD_TIME_USED && code !== WAITLIST_FIRST) return false;
    if (code === ErrorCode.HOLD_TIME_USED) toast.error(t('holdTimeUsed', { minutes: HOLD_TIME_CAP_MINUTES, hours: HOLD_TIME_WINDOW_MINUTES / 60 }));
    else if (code === WAITLIST_FIRST) toast.error(t('waitlistFirst'));
    else toast.error(code === ErrorCode.SLOT_RESERVED ? apiErrorText(error, words, 'slotReserved') : t('slotNotAvailable'));
    dispatch(api.util.invalidateTags(['PublicSlots']));
    setStep('details');
    close();
    if (code !== ErrorCode.HOLD_TIME_USED) onSlotTaken?.(typed.current ?? initialDetails);
    return true;
  };

  /** HOLD_LIMIT that no proof of work lifted: say so (the server's words unless they were for a solver); true when handled. */
  const handleHoldLimit = (error: unknown): boolean => {
    if (!isHoldLimit(error)) return false;
    toast.error(holdChallengeOf(error) ? t('holdLimit') : apiErrorText(error, words, 'holdLimit'));
    setStep('details');
    return true;
  };

  /** The current hold, or a new one from the server; null when it could not be had (already reported). */
  const ensureReservation = async (): Promise<SlotReservation | null> => {
    const current = activeReservation(reservation);
    if (current && current.slotId === slot.id) return current;
    const started = flow.current;
    try {
      const held = await withHoldChallenge(
        (proofOfWork) => reserveSlot({ slotId: slot.id, minutes: HOLD_MINUTES, proofOfWork }).unwrap(),
        setChecking,
      );
      if (finished.current || flow.current !== started) {
        void releaseSlot({ slotId: slot.id, token: held.token });
        return null;
      }
      const next = createReservation(slot.id, held.token, Date.now(), HOLD_MINUTES, held.expiresAt);
      setReservation(next);
      saveDraft({ reservedSlot: next });
      return next;
    } catch (error) {
      if (finished.current || flow.current !== started) return null;
      if (!handleSlotTaken(error) && !handleHoldLimit(error)) toast.error(t('reserveFailed'));
      return null;
    }
  };

  const onDetailsValid = async (values: VisitorDetails, given: ConsentInput) => {
    setConsent(given);
    typed.current = values;
    const booking: BookingDetails = {
      ...values,
      preferredPaymentMethod: DEFAULT_PAYMENT_METHOD,
      slot: { id: slot.id, date: slot.date, startTime: slot.startTime },
      fee: feeFor(values.selectedSchool),
    };
    setBusy(true);
    const held = await ensureReservation();
    setBusy(false);
    if (!held) return;
    setDetails(booking);
    saveDraft({ currentBooking: booking, paymentStatus: 'idle' });
    setStep('payment');
  };

  const proceedToPayment = async () => {
    if (!details || !consent) {
      toast.error(t('noBookingData'));
      setStep('details');
      return;
    }
    setSession(null);
    setStep('processing');
    const started = flow.current;
    const held = await ensureReservation();
    if (!held) {
      if (!finished.current && flow.current === started) setStep('payment');
      return;
    }
    try {
      const created = await withHoldChallenge(
        (proofOfWork) =>
          initiatePayment({
            slotId: details.slot.id,
            visitorName: details.visitorName,
            visitorEmail: details.visitorEmail,
            visitorContactNo: details.visitorContactNo,
            selectedSchool: details.selectedSchool,
            childName: details.childName,
            childYear: details.childYear,
            fee: details.fee,
            slotDate: details.slot.date,
            slotStartTime: details.slot.startTime,
            preferredPaymentMethod: details.preferredPaymentMethod,
            holdToken: held.token,
            proofOfWork,
            consent,
            // The parent's language for their mails, invites and reminders; absent means English (the server's default).
            ...(locale !== DEFAULT_LOCALE && { locale }),
          }).unwrap(),
        setChecking,
      );
      if (finished.current || flow.current !== started) {
        // Cancelled while the session was being created: give it up rather than leave for the gateway.
        if (created) void cancelPayment({ id: created.paymentId || created.id, key: created.holdToken });
        return;
      }
      if (!created) {
        toast.error(t('serviceUnavailable'));
        setStep('payment');
        return;
      }
      rememberPayment(created);
      saveDraft({ paymentSession: created, paymentStatus: 'pending' });
      setSession(created);
      leftWith.current = created.paymentId || created.id;
      browserNavigation.assign(created.checkoutUrl);
    } catch (error) {
      if (finished.current || flow.current !== started) return;
      if (handleSlotTaken(error) || handleHoldLimit(error)) return;
      toast.error(apiErrorText(error, words, 'initiationFailed'));
      setStep('payment');
    }
  };

  const fail = (message: string) => {
    toast.error(message);
    release();
    setSession(null);
    saveDraft({ paymentSession: null, paymentStatus: 'failed' });
    setStep('payment');
  };

  const succeed = (result: PaymentStatusResult) => {
    toast.success(t('paymentSuccess'));
    dispatch(api.util.invalidateTags(['PublicSlots']));
    close();
    navigate('/thankyou', {
      state: {
        payment: result.payment,
        booking: result.booking,
        ...(result.owner && { emailStatus: result.emailStatus, emailTimeouts: result.emailTimeouts }),
      },
    });
  };

  useEffect(() => browserNavigation.onReturn(() => setReturnedTo(leftWith.current)), []);

  // Status every 2 s once back from the gateway: completed succeeds, failed or cancelled fails.
  const result = polling ? status.data : undefined;
  useEffect(() => {
    if (!result || finished.current) return;
    const value = result.payment.status;
    if (value === 'completed') succeed(result);
    else if (value === 'failed') fail(t('paymentFailed'));
    // Cancelled on the gateway's page: nothing was charged, and the summary offers the slot again.
    else if (value === 'cancelled') fail(t('paymentCancelled'));
    // A status check records whatever the server says (pending or processing here).
    else if (value === 'pending' || value === 'processing') saveDraft({ paymentStatus: value });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- react to each new status answer only
  }, [result]);

  // The session countdown: at zero the payment fails as expired.
  const sessionRemaining = session ? Math.max(0, Date.parse(session.expiresAt) - now) : null;
  useEffect(() => {
    if (polling && sessionRemaining === 0 && !finished.current) fail(t('sessionExpired'));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fire once when the countdown reaches zero
  }, [polling, sessionRemaining === 0]);

  const cancelProcessing = () => {
    flow.current += 1;
    // The parent stays on the page: say so if the gateway session could not be closed.
    if (paymentId) void cancelPayment({ id: paymentId, key: paymentKey }).unwrap().catch(() => toast.error(t('cancellationFailed')));
    release();
    setSession(null);
    saveDraft({ paymentSession: null, paymentStatus: 'cancelled' });
    setStep('details');
  };

  const retryPayment = () => {
    const draft = loadDraft();
    if (draft.retryCount >= MAX_PAYMENT_RETRIES) {
      toast.error(t('maxRetries'));
      return;
    }
    saveDraft({ retryCount: draft.retryCount + 1 });
    browserNavigation.reload();
  };

  /** Escape, the close button or Cancel in details: let go of everything and close. */
  const backOut = () => {
    flow.current += 1;
    if (step === 'processing' && paymentId) void cancelPayment({ id: paymentId, key: paymentKey });
    release();
    close();
  };

  const view: ProcessingView = !session ? 'preparing' : !polling ? 'redirecting' : status.isError ? 'error' : 'processing';

  const footer =
    step === 'details' ? (
      <>
        <Button variant="secondary" onClick={backOut}>
          {t('cancel')}
        </Button>
        <Button type="submit" form={DETAILS_FORM_ID} loading={busy} disabled={busy}>
          {t('continueToPayment')}
        </Button>
      </>
    ) : step === 'payment' ? (
      <>
        <Button
          variant="secondary"
          onClick={() => {
            setEditing(null);
            setStep('details');
          }}
        >
          {t('backToDetails')}
        </Button>
        <Button onClick={proceedToPayment}>{t('proceedToPayment')}</Button>
      </>
    ) : view === 'error' ? (
      <>
        <Button variant="secondary" onClick={cancelProcessing}>
          {t('cancel')}
        </Button>
        <Button onClick={retryPayment}>{t('retry')}</Button>
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
      title={t(titles[step])}
      description={step === 'details' ? t('slotWhen', slotWhenValues(slot.date, slot.startTime, locale)) : undefined}
      footer={footer}
      // Each step opens on its first field (details) or its heading (summary, processing), never on Close.
      focusKey={`${step}:${editing ?? ''}`}
      focusTarget={step === 'details' && editing ? `[name="${editing}"]` : undefined}
    >
      {checking && <CheckingNotice role="status">{holdLimit('checking')}</CheckingNotice>}
      {step === 'details' && (
        <DetailsStep
          schools={schools}
          pricingLoading={pricing.isLoading}
          pricingFailed={pricing.isError}
          defaultValues={
            details
              ? {
                  visitorName: details.visitorName,
                  visitorEmail: details.visitorEmail,
                  visitorContactNo: details.visitorContactNo,
                  selectedSchool: details.selectedSchool,
                  childName: details.childName,
                  childYear: details.childYear,
                }
              : initialDetails
          }
          consented={consent !== null}
          onValid={onDetailsValid}
        />
      )}
      {step === 'payment' && details && (
        <SummaryStep
          details={details}
          reservation={reservation}
          now={now}
          onEdit={(field) => {
            setEditing(field);
            setStep('details');
          }}
        />
      )}
      {step === 'processing' && <ProcessingStep view={view} remainingMs={sessionRemaining} />}
    </Dialog>
  );
}
