import type { Locale } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import { manageCatalog, type ManageWords } from '../i18n';
import { errorText } from './apiError';

/** A failed RTK Query call as the manage page receives it: the server's envelope in `data`. */
const failed = (status: number, error: string, message: string) => ({ status, data: { success: false, error, message } });

async function wordsIn(locale: Locale): Promise<ManageWords> {
  await manageCatalog.ready(locale);
  return { locale, t: (id, values) => manageCatalog.translate(locale, id, values) };
}

describe('a failed manage call in the parent’s language', () => {
  const visitOver = failed(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.visitOver);

  it('shows the server’s words in English', async () => {
    expect(errorText(visitOver, await wordsIn('en'), 'tooLate')).toBe('This visit is over, so the booking can no longer be cancelled.');
  });

  it.each([
    ['ms', 'Lawatan ini telah berakhir, jadi tempahan tidak lagi boleh dibatalkan.'],
    ['zh', '此次评估已结束，预约无法再取消。'],
  ] as const)('translates the server’s known words (%s)', async (locale, words) => {
    expect(errorText(visitOver, await wordsIn(locale), 'tooLate')).toBe(words);
  });

  it('reads the error code when the server’s words are unknown', async () => {
    const unknownWords = failed(409, ManageErrorCode.QUOTE_CHANGED, 'Refund policy changed.');
    expect(errorText(unknownWords, await wordsIn('en'), 'tooLate')).toBe('Refund policy changed.');
    expect(errorText(unknownWords, await wordsIn('ms'), 'tooLate')).toBe(manageCatalog.translate('ms', 'quoteChanged'));
  });

  it('falls back when neither words nor code are known', async () => {
    const network = { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' };
    expect(errorText(network, await wordsIn('ms'), 'tooLate')).toBe(manageCatalog.translate('ms', 'tooLate'));
  });
});
