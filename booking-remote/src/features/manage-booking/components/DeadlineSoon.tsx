import type { ChangeTerms } from 'shared-api/change-terms';
import { Callout } from '../../../lib/callout';
import type { ManageWords } from '../i18n';
import { momentText } from '../utils/words';

/** A refund deadline closer than this is said on its own, not only inside the terms' sentence. */
export const DEADLINE_SOON_MS = 24 * 3_600_000;

/**
 * The next refund deadline when it is less than a day away ("The full refund ends in 15 minutes, at 10:15 AM"): a move
 * can bring it that close, and a date inside a long sentence reads like any other.
 */
export function DeadlineSoon({ terms, words }: { terms: ChangeTerms; words: ManageWords }) {
  const next = terms.refunds[0];
  if (!next) return null;
  const left = Date.parse(next.until) - Date.parse(terms.now);
  if (left <= 0 || left >= DEADLINE_SOON_MS) return null;
  const minutes = Math.max(1, Math.floor(left / 60_000));
  const unit = minutes < 60 ? 'minutes' : 'hours';
  return (
    <Callout as="p" $tone="warning" role="note">
      {words.t('deadlineSoon', {
        percent: next.percent,
        unit,
        count: unit === 'minutes' ? minutes : Math.floor(minutes / 60),
        moment: momentText(next.until, words),
      })}
    </Callout>
  );
}
