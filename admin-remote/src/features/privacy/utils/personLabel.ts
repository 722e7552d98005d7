import type { PrivacyRequest } from 'shared-api/contract';
import { formatPhone } from '../../../lib/format';

/** Who a request is about, as staff read it: the email, or the phone as Malaysians write it. */
export const personLabel = (request: Pick<PrivacyRequest, 'personEmail' | 'personPhone'>): string =>
  request.personEmail ?? formatPhone(request.personPhone) ?? '';
