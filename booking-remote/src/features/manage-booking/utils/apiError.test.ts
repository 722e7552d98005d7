import { ErrorCode, type Locale } from 'shared-api';
import { ManageErrorCode, ManageMessage } from 'shared-api/manage';
import { manageCatalog, type ManageWords } from '../i18n';
import { CODE_TEXTS, errorText } from './apiError';

/** A failed RTK Query call as the manage page receives it: the server's envelope in `data`, with its reason if any. */
const failed = (status: number, error: string, message: string, rule?: string) => ({
  status,
  data: { success: false, error, message, ...(rule && { reason: { rule } }) },
});

async function wordsIn(locale: Locale): Promise<ManageWords> {
  await manageCatalog.ready(locale);
  return { locale, t: (id, values) => manageCatalog.translate(locale, id, values) };
}

describe('a failed manage call in the parent’s language, chosen by its error code', () => {
  it('in English says what the server says for each code, word for word', async () => {
    const en = await wordsIn('en');
    for (const [code, id] of Object.entries(CODE_TEXTS)) {
      expect(errorText(failed(409, code, ManageMessage[id as keyof typeof ManageMessage]), en, 'move.failed')).toBe(ManageMessage[id as keyof typeof ManageMessage]);
    }
  });

  it('reads the code, not the sentence: new server wording keeps the parent’s text and its translation', async () => {
    const reworded = failed(409, ManageErrorCode.QUOTE_CHANGED, 'Refund policy changed.');
    expect(errorText(reworded, await wordsIn('en'), 'cancel.failed')).toBe(ManageMessage.quoteChanged);
    expect(errorText(reworded, await wordsIn('ms'), 'cancel.failed')).toBe(manageCatalog.translate('ms', 'quoteChanged'));
    expect(errorText(failed(404, ManageErrorCode.MANAGE_LINK_INVALID, 'Nope'), await wordsIn('zh'), 'loadFailed')).toBe(
      manageCatalog.translate('zh', 'invalidLink'),
    );
  });

  it.each([
    ['ms', 'Lawatan ini telah berakhir, jadi tempahan tidak lagi boleh dibatalkan.'],
    ['zh', '此次评估已结束，预约无法再取消。'],
  ] as const)('tells apart the situations one code covers by the rule its reason names (%s)', async (locale, overWords) => {
    const words = await wordsIn(locale);
    expect(errorText(failed(409, ManageErrorCode.CHANGE_CLOSED, 'Reworded', 'visitOver'), words, 'tooLate')).toBe(overWords);
    expect(errorText(failed(409, ManageErrorCode.CHANGE_CLOSED, 'Reworded', 'cancelled'), words, 'tooLate')).toBe(manageCatalog.translate(locale, 'cancelled'));
    expect(errorText(failed(409, ErrorCode.PAYMENT_NOT_COMPLETED, 'Reworded', 'cancelled'), words, 'loadFailed')).toBe(manageCatalog.translate(locale, 'cancelled'));
    expect(errorText(failed(400, ErrorCode.VALIDATION_ERROR, 'Reworded', 'sameSlot'), words, 'move.failed')).toBe(manageCatalog.translate(locale, 'sameSlot'));
    // A rule another code carries is not taken under CHANGE_CLOSED: the code's own meaning stands.
    expect(errorText(failed(409, ManageErrorCode.CHANGE_CLOSED, 'Reworded', 'slotTaken'), words, 'move.failed')).toBe(manageCatalog.translate(locale, 'tooLate'));
  });

  it('never reads the English words: without a reason, the code’s own text', async () => {
    const words = await wordsIn('ms');
    expect(errorText(failed(409, ManageErrorCode.CHANGE_CLOSED, ManageMessage.visitOver), words, 'move.failed')).toBe(manageCatalog.translate('ms', 'tooLate'));
    expect(errorText(failed(400, ErrorCode.VALIDATION_ERROR, ManageMessage.sameSlot), words, 'move.failed')).toBe(manageCatalog.translate('ms', 'move.failed'));
  });

  it('a code the page does not know: the server’s words in English, the fallback in another language', async () => {
    const unknown = failed(500, ErrorCode.INTERNAL, 'Internal error');
    expect(errorText(unknown, await wordsIn('en'), 'loadFailed')).toBe('Internal error');
    expect(errorText(unknown, await wordsIn('ms'), 'loadFailed')).toBe(manageCatalog.translate('ms', 'loadFailed'));
  });

  it('falls back when no answer came', async () => {
    const network = { status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' };
    expect(errorText(network, await wordsIn('ms'), 'tooLate')).toBe(manageCatalog.translate('ms', 'tooLate'));
    expect(errorText(network, await wordsIn('en'), 'tooLate')).toBe(ManageMessage.tooLate);
  });
});
