// Business constants of spec section 9, shared by the browser and the server.
export const TIMEZONE = 'Asia/Singapore';
export const SLOT_MINUTES = 30;
export const DEFAULT_SLOT_START_TIME = '08:30';
export const BOOKING_LEAD_HOURS = 1;
export const HOLD_MINUTES = 15;
export const MAX_HOLD_MINUTES = 30;
export const HOLD_WARNING_MINUTES = 2;
export const PUBLIC_PAGE_SIZE = 100;
/**
 * The timetable's list call, byte for byte as the shell's HTML preloads it for `/`. No `_t` cache buster: the API
 * answers `Cache-Control: no-store`, which keeps every cache out, and a per-call value would make the preload unusable.
 */
export const PUBLIC_TIMETABLE_LIST_PATH = `/public/list?limit=${PUBLIC_PAGE_SIZE}&page=1&format=legacy`;
export const CAROUSEL_WEEKDAYS = 14;
export const PAYMENT_POLL_MS = 2000;
export const SESSION_TICK_MS = 1000;
export const MAX_PAYMENT_RETRIES = 3;
export const SUCCESS_POLL_MS = 3000;
export const SUCCESS_MAX_RETRIES = 10;
export const PENDING_POLL_MS = 5000;
export const PENDING_COUNTDOWN_SECONDS = 300;
export const LOGIN_REDIRECT_MS = 1500;
export const CREATE_SUCCESS_PANEL_MS = 1500;
export const COPY_CONFIRM_MS = 2000;
export const TOAST_DURATION_MS = 4000;
export const TOAST_MAX_VISIBLE = 3;
export const NAME_MAX_LENGTH = 255;
export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;
export const REGISTER_PASSWORD_MIN = 5;
export const TOKEN_COOKIE = 'token';
export const CURRENCY = 'MYR';
export const PAYMENT_METHODS = ['fpx', 'card', 'ewallet', 'duitnow_qr'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'fpx';
/** Local-storage keys used by the remotes. */
export const BOOKING_STORAGE_KEY = 'booking';
export const DASHBOARD_FILTER_STORAGE_KEY = 'dashboardSlotFilter';
