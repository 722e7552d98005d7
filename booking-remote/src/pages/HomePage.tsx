import { lazy, Suspense, useRef, useState } from 'react';
import { PaymentInProgressNotice } from '../features/booking-dialog/components/PaymentInProgressNotice';
import { Timetable, type BookableSlot } from '../features/timetable';

// The dialog is fetched on the first slot click, keeping it off the timetable's first load.
const BookingDialog = lazy(() => import('../features/booking-dialog'));
// On that click the dialog primitive's code (shared-ui) is fetched too, beside the dialog's chunks rather than after them.
const preloadDialogCode = () => void import('shared-ui/forms').then((forms) => forms.preloadDialog());

/** `/`: the timetable; picking a slot opens a fresh booking dialog. */
export default function HomePage() {
  const [chosen, setChosen] = useState<{ slot: BookableSlot; opening: number } | null>(null);
  const openings = useRef(0);
  return (
    <>
      {!chosen && <PaymentInProgressNotice />}
      <Timetable
        onSelectSlot={(slot) => {
          preloadDialogCode();
          openings.current += 1;
          setChosen({ slot, opening: openings.current });
        }}
      />
      {chosen && (
        <Suspense fallback={null}>
          <BookingDialog key={chosen.opening} slot={chosen.slot} onClose={() => setChosen(null)} />
        </Suspense>
      )}
    </>
  );
}
