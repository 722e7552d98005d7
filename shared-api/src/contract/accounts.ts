// Staff accounts (issue 15): forgot password, log out everywhere, colleagues. One contract for the server routes and
// the admin remote's account pages (browser: `shared-api/accounts`).
import { z } from 'zod';
import { registerBodySchema, rowIdSchema } from './schemas';

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
} as const;

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
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  disabledAt: z.string().nullable(),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;
export const staffAccountListSchema = z.object({ accounts: z.array(staffAccountSchema) });
export type StaffAccountList = z.infer<typeof staffAccountListSchema>;
export const staffAccountParamsSchema = z.object({ id: rowIdSchema });
