// The product's own words (spec sections 5 and 8), used by forms, toasts and server answers alike.

export const ValidationMessage = {
  nameTooShort: 'Name must be at least 2 characters',
  emailInvalid: 'Please enter a valid email address',
  phoneInvalid: 'Please enter a valid phone number (8-15 digits)',
  schoolRequired: 'Please select a school',
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  contactRequired: 'Contact number is required',
  loginEmailRequired: 'required',
  loginEmailFormat: 'Entered value does not match email format',
  registerPasswordMin: 'min length is 5',
  startDateRequired: 'Start date is required',
  endDateRequired: 'End date is required',
  endBeforeStart: 'End date must be after start date',
  startTimeRequired: 'Start time is required',
} as const;

export const SlotListError = {
  notFound: 'No slots found for the requested criteria',
  badRequest: 'Invalid request parameters',
  unauthorized: 'Authentication required. Please log in again.',
  forbidden: "Access denied. You don't have permission to view slots.",
  server: 'Server error. Please try again later.',
  cors: 'CORS error: Backend server is not accessible. Please contact administrator.',
  network: 'Network error: Cannot connect to server. Please check your connection.',
  timeout: 'Request timeout. Please try again.',
  other: 'Failed to fetch slots. Please try again.',
  invalidData: 'Invalid data format received from server',
  unreachable: 'Unable to connect to server',
} as const;

export const BookingMessage = {
  slotReserved: 'This slot is currently reserved. Please wait a few minutes or select another slot.',
  slotNotAvailable: 'This slot is not available. Please select another slot.',
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

export const DatabaseMessage = {
  healthy: 'Database connection successful',
  cannotCheck: 'Cannot check database status',
} as const;
