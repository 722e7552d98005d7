import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { BOOKING_STORAGE_KEY, type VisitorDetailsInput } from 'shared-api';
import { rebookOf, type Rebook } from '../lib/rebook';
import { Timetable, timetableApi, type BookableSlot } from '../features/timetable';
import { filterDisplayableSlots } from '../lib/slot-list/displayFilter';

// The dialog is fetched on the first slot click, keeping it off the timetable's first load.
const BookingDialog = lazy(() => import('../features/booking-dialog'));
// The waitlist form (issue 26), fetched when a parent asks for it from a full day or week, or a time taken meanwhile.
const JoinWaitlistDialog = lazy(() => import('../features/waitlist').then((module) => ({ default: module.JoinWaitlistDialog })));
// On that click the dialog primitive's code (shared-ui) is fetched too, beside the dialog's chunks rather than after them.
const preloadDialogCode = () => void import('shared-ui/forms').then((forms) => forms.preloadDialog());
// The payment-in-progress notice, fetched only when this browser keeps a booking draft (a payment may be under way).
const PaymentInProgressNotice = lazy(() =>
  import('../features/booking-dialog/components/PaymentInProgressNotice').then((module) => ({ default: module.PaymentInProgressNotice })),
);

/** How often the list is read while the booking dialog is open (the server rebuilds it only when a slot changed). */
const CHOOSING_POLL_MS = 5_000;

const hasBookingDraft = (): boolean => {
  try {
    return window.localStorage.getItem(BOOKING_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
};

/** `/`: the timetable; picking a slot opens a fresh booking dialog. */
export default function HomePage() {
  const location = useLocation();
  const navigate = useNavigate();
  // Sent back from a result page to book the same time again: the dialog opens on it, with the details typed before.
  const [chosen, setChosen] = useState<({ opening: number; openedAt: number } & Rebook) | null>(() => {
    const rebook = rebookOf(location.state);
    return rebook ? { ...rebook, opening: 0, openedAt: Date.now() } : null;
  });
  const [draft] = useState(hasBookingDraft);
  // The timetable's own list (the same cache), read every few seconds while a time is being chosen: a time taken by
  // someone else meanwhile is said at once in the dialog, with the nearest free ones; the timetable behind follows.
  const slots = timetableApi.useGetPublicSlotsQuery(undefined, { skip: !chosen, pollingInterval: CHOOSING_POLL_MS, skipPollingIfUnfocused: true });
  const freeTimes = chosen && slots.data ? filterDisplayableSlots(slots.data.slots) : [];
  const unlisted = Boolean(chosen && slots.data && slots.data.fetchedAt > chosen.openedAt && !freeTimes.some((free) => free.id === chosen.slot.id));
  const [joining, setJoining] = useState<{ day?: string; details?: Partial<VisitorDetailsInput>; reason: 'full' | 'taken'; opening: number } | null>(null);
  const openings = useRef(0);
  useEffect(() => {
    // Once: a reload or Back must not open it again.
    if (rebookOf(location.state)) {
      preloadDialogCode();
      navigate('.', { replace: true, state: null });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on arrival only
  }, []);
  return (
    <>
      {!chosen && draft && (
        <Suspense fallback={null}>
          <PaymentInProgressNotice />
        </Suspense>
      )}
      <Timetable
        onSelectSlot={(slot) => {
          preloadDialogCode();
          openings.current += 1;
          setChosen({ slot, opening: openings.current, openedAt: Date.now() });
        }}
        onJoinWaitlist={(day) => {
          openings.current += 1;
          setJoining({ day, reason: 'full', opening: openings.current });
        }}
      />
      {chosen && (
        <Suspense fallback={null}>
          <BookingDialog
            key={chosen.opening}
            slot={chosen.slot}
            initialDetails={chosen.details}
            initialConsent={chosen.consent}
            onClose={() => setChosen(null)}
            freeTimes={freeTimes}
            unlisted={unlisted}
            onChooseTime={(slot, typed) => {
              openings.current += 1;
              setChosen({ slot: slot as BookableSlot, details: typed.details, consent: typed.consent, opening: openings.current, openedAt: Date.now() });
            }}
            onJoinWaitlist={(typed) => {
              openings.current += 1;
              setChosen(null);
              setJoining({ day: chosen.slot.date, details: typed, reason: 'taken', opening: openings.current });
            }}
          />
        </Suspense>
      )}
      {joining && (
        <Suspense fallback={null}>
          <JoinWaitlistDialog
            key={joining.opening}
            day={joining.day}
            initialDetails={joining.details}
            reason={joining.reason}
            onClose={() => setJoining(null)}
          />
        </Suspense>
      )}
    </>
  );
}
