import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  api,
  brand,
  DEFAULT_LOCALE,
  DEFAULT_PAYMENT_METHOD,
  ErrorCode,
  fallbackFeeSen,
  HOLD_MINUTES,
  MAX_PAYMENT_RETRIES,
  PAYMENT_POLL_MS,
  useAppDispatch,
  type PaymentSession,
  type PaymentStatusResult,
  type VisitorDetails,
} from 'shared-api';
import { Button, styled, useCatalog, useToast } from 'shared-ui';
import { Dialog } from 'shared-ui/forms';
import { browserNavigation } from '../../../lib/browserNavigation';
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
import { apiErrorCode } from '../utils/apiError';
import { apiErrorText, slotWhenValues } from '../utils/dialogText';
import { clearDraft, loadDraft, saveDraft, type BookingDetails } from '../utils/bookingDraft';
import { holdChallengeOf, isHoldLimit, withHoldChallenge } from '../utils/holdLimit';
import { activeReservation, createReservation, type SlotReservation } from '../utils/reservation';
import { DETAILS_FORM_ID, DetailsStep, type SchoolOption } from './DetailsStep';
import { ProcessingStep, type ProcessingView } from './ProcessingStep';
import { SummaryStep } from './SummaryStep';

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

type Props = { slot: DialogSlot; onClose: () => void };

/** The three-step booking dialog; mount it afresh (a new key) on every opening so form and step reset. */
export function BookingDialog({ slot, onClose }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<Step>('details');
  const [busy, setBusy] = useState(false);
  // Solving a hold-limit challenge (one connection holding many slots, e.g. a carrier NAT on enrolment day).
  const [checking, setChecking] = useState(false);
  const [details, setDetails] = useState<BookingDetails | null>(null);
  const [reservation, setReservation] = useState<SlotReservation | null>(null);
  const [session, setSession] = useState<PaymentSession | null>(null);
  const finished = useRef(false);
  // Bumped whenever the parent backs out, so an answer that arrives afterwards is not acted on.
  const flow = useRef(0);

  const pricing = useGetPricingQuery(undefined, { refetchOnMountOrArgChange: true });
  const [reserveSlot] = useReserveSlotMutation();
  const [releaseSlot] = useReleaseSlotMutation();
  const [initiatePayment] = useInitiatePaymentMutation();
  const [cancelPayment] = useCancelPaymentMutation();

  const paymentId = session?.paymentId || session?.id || '';
  // The payment the browser last left for the gateway with, and the one it came back from (Back restores this page as it was).
  const leftWith = useRef<string | null>(null);
  const [returnedTo, setReturnedTo] = useState<string | null>(null);
  // Asked about only once the parent is back: before the browser has left, a status call would only spend the gateway check.
  const polling = step === 'processing' && paymentId !== '' && returnedTo === paymentId;
  const status = useGetPaymentStatusQuery(paymentId, { skip: !polling, pollingInterval: PAYMENT_POLL_MS });
  const now = useNow(step !== 'details');

  // Server pricing overrides the configured fallback fees.
  const schools: SchoolOption[] =
    pricing.data && pricing.data.length > 0
      ? pricing.data.map((p) => ({ name: p.schoolName, feeSen: p.totalFee }))
      : brand.schools.map((s) => ({ name: s.name, feeSen: fallbackFeeSen(s.name) }));
  const feeFor = (school: string) => schools.find((s) => s.name === school)?.feeSen ?? fallbackFeeSen(school);

  useEffect(() => {
    // A new opening starts clean: a previous draft's hold on another slot is let go.
    const previous = loadDraft().reservedSlot;
    if (previous && previous.slotId !== slot.id && activeReservation(previous)) {
      void releaseSlot({ slotId: previous.slotId, token: previous.token });
    }
    clearDraft();
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

  /** SLOT_RESERVED / SLOT_NOT_AVAILABLE: say so, refresh the list and close; true when handled. */
  const handleSlotTaken = (error: unknown): boolean => {
    const code = apiErrorCode(error);
    if (code !== ErrorCode.SLOT_RESERVED && code !== ErrorCode.SLOT_NOT_AVAILABLE) return false;
    toast.error(code === ErrorCode.SLOT_RESERVED ? apiErrorText(error, t, locale, 'slotReserved') : t('slotNotAvailable'));
    dispatch(api.util.invalidateTags(['PublicSlots']));
    setStep('details');
    close();
    return true;
  };

  /** HOLD_LIMIT that no proof of work lifted: say so (the server's words unless they were for a solver); true when handled. */
  const handleHoldLimit = (error: unknown): boolean => {
    if (!isHoldLimit(error)) return false;
    toast.error(holdChallengeOf(error) ? t('holdLimit') : apiErrorText(error, t, locale, 'holdLimit'));
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

  const onDetailsValid = async (values: VisitorDetails) => {
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
    if (!details) {
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
            fee: details.fee,
            slotDate: details.slot.date,
            slotStartTime: details.slot.startTime,
            preferredPaymentMethod: details.preferredPaymentMethod,
            holdToken: held.token,
            proofOfWork,
            // The parent's language for their mails, invites and reminders; absent means English (the server's default).
            ...(locale !== DEFAULT_LOCALE && { locale }),
          }).unwrap(),
        setChecking,
      );
      if (finished.current || flow.current !== started) {
        // Cancelled while the session was being created: give it up rather than leave for the gateway.
        if (created) void cancelPayment(created.paymentId || created.id);
        return;
      }
      if (!created) {
        toast.error(t('serviceUnavailable'));
        setStep('payment');
        return;
      }
      saveDraft({ paymentSession: created, paymentStatus: 'pending' });
      setSession(created);
      leftWith.current = created.paymentId || created.id;
      browserNavigation.assign(created.checkoutUrl);
    } catch (error) {
      if (finished.current || flow.current !== started) return;
      if (handleSlotTaken(error) || handleHoldLimit(error)) return;
      toast.error(apiErrorText(error, t, locale, 'initiationFailed'));
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
      state: { emailStatus: result.emailStatus, emailTimeouts: result.emailTimeouts, payment: result.payment, booking: result.booking },
    });
  };

  useEffect(() => browserNavigation.onReturn(() => setReturnedTo(leftWith.current)), []);

  // Status every 2 s once back from the gateway: completed succeeds, failed or cancelled fails.
  const result = polling ? status.data : undefined;
  useEffect(() => {
    if (!result || finished.current) return;
    const value = result.payment.status;
    if (value === 'completed') succeed(result);
    else if (value === 'failed' || value === 'cancelled') fail(t('paymentFailed'));
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
    if (paymentId) void cancelPayment(paymentId).unwrap().catch(() => toast.error(t('cancellationFailed')));
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
    if (step === 'processing' && paymentId) void cancelPayment(paymentId);
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
        <Button variant="secondary" onClick={() => setStep('details')}>
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
    >
      {checking && <CheckingNotice role="status">{t('checking')}</CheckingNotice>}
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
                }
              : undefined
          }
          onValid={onDetailsValid}
        />
      )}
      {step === 'payment' && details && <SummaryStep details={details} reservation={reservation} now={now} />}
      {step === 'processing' && <ProcessingStep view={view} remainingMs={sessionRemaining} />}
    </Dialog>
  );
}
