// Staff accounts (issue 15): forgot password, log out everywhere, colleagues. One contract for the server routes and
// the admin remote's account pages (browser: `shared-api/accounts`).
import { z } from 'zod';
import { registerBodySchema, rowIdSchema, staffRoleSchema } from './schemas';

/** A reset link is good for this long, once. */
export const PASSWORD_RESET_MINUTES = 30;
/** The path of the page a reset mail links to: `${PUBLIC_SITE_URL}${passwordResetPath(token)}`. */
export const passwordResetPath = (token: string): string => `/reset-password/${encodeURIComponent(token)}`;

export const AccountMessage = {
  /** The one answer to a reset request, whether or not the address has an account. */
  resetRequested: 'If an account exists for this address, a reset link has been sent.',
  resetTooMany: 'Too many reset requests. Please wait a while and try again.',
  resetTooManyTries: 'Too many reset links that do not work were tried from this address. Please wait a few minutes and try again.',
  resetInvalid: 'This reset link is invalid, has already been used or has expired. Please ask for a new one.',
  resetDone: 'Your password has been changed. Please log in with the new password.',
  passwordsDiffer: 'The passwords do not match.',
  loggedOutEverywhere: 'Logged out everywhere',
  lastActiveAccount: 'The last active staff account cannot be disabled.',
  accountNotFound: 'No staff account with this id.',
  accountDisabled: 'Account disabled',
  lastAdmin: 'The last enabled admin cannot be made staff or disabled. Make another colleague admin first.',
  roleChanged: 'Role changed',
  adminOnly: 'Only an admin can do this. Ask an admin of your school.',
  stepUpRequired: 'Enter the 6-digit code from your authenticator app to continue.',
  codeWrong: 'That code is not right. Enter the newest code from your app, or one of your recovery codes.',
  codeTooMany: 'Too many wrong codes. Please wait 15 minutes and try again.',
  alreadyEnrolled: 'This account already has a second factor.',
  ownSecondFactor: 'You cannot reset your own second factor: use a recovery code, or ask another admin.',
  noSecondFactor: 'This account has no second factor set up.',
  notEnrolling: 'Start the set-up again: scan the new QR code.',
  commonPassword: 'This password is one of the most common passwords. Please choose another.',
  notifyAsked: 'Waiting for a second admin to confirm the mailing.',
  notifyNeedsAnotherAdmin: 'You asked for this mailing: a second admin must confirm it.',
} as const;

/** The staff side's own refusal codes (off the public page's first load, as WaitlistErrorCode is). */
export const AccountErrorCode = {
  /** 403: the route is an admin's and the account is staff. */
  ADMIN_ONLY: 'ADMIN_ONLY',
  /** 403: an admin action, and this session has not given the second factor in the last STEP_UP_HOURS (`data.enrolled`). */
  STEP_UP_REQUIRED: 'STEP_UP_REQUIRED',
} as const;
export type AccountErrorCode = (typeof AccountErrorCode)[keyof typeof AccountErrorCode];

/** An admin action asks for the second factor again this long after it was last given (per session). */
export const STEP_UP_HOURS = 12;
/** Recovery codes given at enrolment, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** Wrong second-factor codes an account may give in SECOND_FACTOR_WINDOW_MINUTES before it must wait. */
export const SECOND_FACTOR_GUESSES = 5;
export const SECOND_FACTOR_WINDOW_MINUTES = 15;

/** GET /auth/second-factor: whether the account has enrolled, and until when this session's step-up holds. */
export const secondFactorStatusSchema = z.object({ enrolled: z.boolean(), steppedUpUntil: z.string().nullable() });
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;
/** POST /auth/second-factor/enrol: the new secret, as text and as a QR code (SVG) for an authenticator app. */
export const secondFactorEnrolmentSchema = z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() });
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolmentSchema>;
/** A 6-digit code from the app, or a recovery code (verify only). */
export const secondFactorCodeBodySchema = z.object({ code: z.string().trim().min(1, 'Enter the code.').max(40) });
export type SecondFactorCodeBody = z.output<typeof secondFactorCodeBodySchema>;
/** What a confirmed enrolment answers, once: the recovery codes. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()), steppedUpUntil: z.string() });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
/** What a verified code answers. */
export const steppedUpSchema = z.object({ steppedUpUntil: z.string(), recoveryCodesLeft: z.number().int() });
/** POST /staff/accounts/:id/role */
export const staffRoleBodySchema = z.object({ role: staffRoleSchema });
export type StaffRoleBody = z.output<typeof staffRoleBodySchema>;

/** POST /auth/password-reset/request */
export const passwordResetRequestBodySchema = z.object({ email: registerBodySchema.shape.email });
export type PasswordResetRequestBody = z.output<typeof passwordResetRequestBodySchema>;
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestBodySchema>;

/** POST /auth/password-reset/confirm: the token from the mail's link and the new password (the register form's rules). */
export const passwordResetConfirmBodySchema = z.object({
  token: z.string().min(1).max(200),
  password: registerBodySchema.shape.password,
});
export type PasswordResetConfirmBody = z.output<typeof passwordResetConfirmBodySchema>;
/** POST /auth/password-reset/check: whether a reset link still works, asked when its page opens (it says nothing else). */
export const passwordResetCheckBodySchema = passwordResetConfirmBodySchema.pick({ token: true });
export type PasswordResetCheckBody = z.output<typeof passwordResetCheckBodySchema>;

/** The reset page's form: the new password twice. */
export const resetPasswordFormSchema = z
  .object({ password: registerBodySchema.shape.password, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: AccountMessage.passwordsDiffer, path: ['confirm'] });
export type ResetPasswordFormInput = z.input<typeof resetPasswordFormSchema>;
export type ResetPasswordFormValues = z.output<typeof resetPasswordFormSchema>;

/** One row of GET /staff/accounts (ISO instants). */
export const staffAccountSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string().nullable(),
  role: staffRoleSchema,
  /** Whether the account has enrolled its second factor. */
  secondFactor: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  disabledAt: z.string().nullable(),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;
export const staffAccountListSchema = z.object({ accounts: z.array(staffAccountSchema) });
export type StaffAccountList = z.infer<typeof staffAccountListSchema>;
export const staffAccountParamsSchema = z.object({ id: rowIdSchema });
