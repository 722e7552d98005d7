// The checkout's public surface: the one owner of a slot's hold (taken, renewed, released, paid, moved) and its price.
export { Checkout, PAYABLE_MS, type OfferHoldRequest, type PaymentHold, type PaymentHoldRequest } from './checkout';
export { hasPrice, priceOf, priceOfChildren } from './price';
export { holdRoutes } from './routes';
export { holdLimitedAnswer } from './answers';
export { HoldLimitError, HoldLimitText, HoldRefusal, FIRST_PAID_HOLD_WORK, MAX_HOLD_WORK } from './limits';
export { issueHoldChallenge, redeemProof } from './challenge';
export { putListFirst, removeListFirst, type ListFirst } from './list-first';
export { HoldInvalidMessage, newBookingReference, refuse, type BookInput, type Hold, type HoldHolder, type Refusal } from './hold-rows';
export { holdGrants } from './tables';
