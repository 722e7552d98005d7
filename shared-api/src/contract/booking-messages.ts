// The product's words for the booking and staff forms and the payment steps (spec sections 5 and 8). Not on the
// public page's first load: browser chunks import them from `shared-api/messages`, the server from the contract.

export const ValidationMessage = {
  nameTooShort: 'Name must be at least 2 characters',
  emailInvalid: 'Please enter a valid email address',
  phoneInvalid: 'Please enter a valid phone number (8-15 digits)',
  schoolRequired: 'Please select a school',
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  contactRequired: 'Contact number is required',
  childNameRequired: "Child's name is required",
  childNameTooShort: "Child's name must be at least 2 characters",
  childYearRequired: 'Please select the year or grade applied for',
  childYearInvalid: 'Please select a year or grade the selected school takes',
  loginEmailRequired: 'required',
  loginEmailFormat: 'Entered value does not match email format',
  registerPasswordMin: 'min length is 5',
  startDateRequired: 'Start date is required',
  endDateRequired: 'End date is required',
  endBeforeStart: 'End date must be after start date',
  startTimeRequired: 'Start time is required',
} as const;
/** A form rule of the contract, named by its words' key: the envelope's `reason.rule` and the catalogues' id for it. */
export type ValidationRule = keyof typeof ValidationMessage;

export const BookingMessage = {
  slotReserved: 'This slot is currently reserved. Please wait a few minutes or select another slot.',
  slotNotAvailable: 'This slot is not available. Please select another slot.',
  /** Issue 37: a checkout of several children needs a free seat for each at the one time. */
  notEnoughPlaces: 'Not enough places are left at this time for all your children.',
  initiationFailed: 'Payment initiation failed. Please try again.',
  serviceUnavailable: 'Payment service is temporarily unavailable. Please try again.',
  reserveFailed: 'Failed to reserve slot. Please try again.',
  noBookingData: 'No booking data found. Please start over.',
  paymentFailed: 'Payment failed. Please try again.',
  paymentSuccess: 'Payment successful! Your booking is confirmed.',
  bookFailed: 'Failed to book slot',
  confirmFailed: 'Failed to confirm booking',
  deleteFailed: 'Delete failed',
  maxRetries: 'Maximum retry attempts reached',
  noReservationToExtend: 'No valid reservation to extend',
  sessionExpired: 'Payment session expired',
  verificationFailed: 'Payment verification failed',
  cancellationFailed: 'Payment cancellation failed',
  pricingFailed: 'Failed to get pricing',
} as const;
