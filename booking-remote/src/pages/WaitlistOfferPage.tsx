import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { WaitlistOffer, type WaitlistAccept, type WaitlistOfferView } from '../features/waitlist';
import { tokenOf } from './tokenOf';

const BookingDialog = lazy(() => import('../features/booking-dialog'));

/**
 * `/waitlist/offer/:offerToken`: the offer a waitlist mail links to. "Book and pay" accepts it (the slot is held for
 * this parent) and opens the booking dialog at the payment summary with the entry's details; paying is a normal booking.
 */
export default function WaitlistOfferPage() {
  const location = useLocation();
  const token = tokenOf(location.pathname);
  // The offer mail's "let the slot pass to the next parent" link: `?decline=1` asks first; a press declines.
  const askDecline = new URLSearchParams(location.search).get('decline') === '1';
  const navigate = useNavigate();
  const [accepted, setAccepted] = useState<{ offer: WaitlistOfferView; accept: WaitlistAccept } | null>(null);
  return (
    <>
      <WaitlistOffer key={token} token={token} askDecline={askDecline} onAccepted={(offer, accept) => setAccepted({ offer, accept })} />
      {accepted && (
        <Suspense fallback={null}>
          <BookingDialog
            slot={{ ...accepted.offer.slot, id: accepted.accept.slotId }}
            offer={{
              details: {
                visitorName: accepted.offer.visitor.name,
                visitorEmail: accepted.offer.visitor.email,
                visitorContactNo: accepted.offer.visitor.phone,
                selectedSchool: accepted.offer.visitor.school,
                childName: accepted.offer.visitor.childName ?? '',
                childYear: accepted.offer.visitor.childYear ?? '',
              },
              feeSen: accepted.offer.feeSen,
              children: accepted.offer.children,
              token: accepted.accept.token,
              expiresAt: accepted.accept.expiresAt,
            }}
            onClose={() => {
              setAccepted(null);
              navigate('.', { replace: true });
            }}
          />
        </Suspense>
      )}
    </>
  );
}
