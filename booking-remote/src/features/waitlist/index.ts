// The fair waitlist's parent side (issue 26), a lazy chunk of its own: the join form ("Join the waitlist", then
// "Check your email"), the entry link's page and the offer link's page, with the waitlist contract (zod).
export { JoinWaitlistDialog } from './components/JoinWaitlistDialog';
export { WaitlistEntry } from './components/WaitlistEntry';
export { WaitlistOffer } from './components/WaitlistOffer';
export type { WaitlistAccept, WaitlistOfferView } from 'shared-api/waitlist';
