import type { ConsentInput } from 'shared-api/contract';
import { currentNoticeVersion, NOTICE_OUTDATED } from 'shared-api/privacy';
import type { DbOrTx } from '../base/db/connection';
import { AppError } from '../base/errors';
import { consents, type ConsentRow } from './tables';

export const NoticeOutdatedMessage =
  'The privacy notice has changed since this page was opened. Please reload the page, read the current notice and agree to it again.';

/** Refuses a consent to any notice but the one in force (400 NOTICE_OUTDATED): the version recorded must be the one shown. */
export function assertCurrentNotice(consent: ConsentInput): void {
  if (consent.noticeVersion !== currentNoticeVersion()) throw new AppError(400, NOTICE_OUTDATED, NoticeOutdatedMessage);
}

/** Records a consent in the caller's transaction (with the payment or booking that names it, so neither stands alone). */
export async function recordConsent(tx: DbOrTx, consent: ConsentInput, channel: 'web' | 'staff'): Promise<ConsentRow> {
  assertCurrentNotice(consent);
  const [row] = await tx.insert(consents).values({ noticeVersion: consent.noticeVersion, language: consent.language, channel }).returning();
  return row;
}
