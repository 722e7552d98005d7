import { dictionary } from '@zxcvbn-ts/language-common';
import { AccountMessage, ErrorCode } from 'shared-api/contract';
import { AppError } from '../base/errors';

let common: Set<string> | null = null;

/**
 * True when `password` is on zxcvbn-ts's list of the most common passwords (about 49,000, from breach corpora),
 * compared without case: a new staff password must not be one. The list is read once, on the first new password.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary.passwords.map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/** 400 for a new password on the list, with its own rule so the forms say it in their language. */
export const commonPasswordRefused = () =>
  new AppError(400, ErrorCode.VALIDATION_ERROR, AccountMessage.commonPassword).withReason({ rule: 'commonPassword' });
