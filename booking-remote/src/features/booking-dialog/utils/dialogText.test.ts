import { act, renderHook } from '@testing-library/react';
import { HOLD_MINUTES, HOLD_TIME_CAP_MINUTES, HOLD_TIME_WINDOW_MINUTES, type ErrorReason } from 'shared-api';
import { BookingMessage, ValidationMessage } from 'shared-api/messages';
import { HoldMessage } from 'shared-api/schemas';
import { activateLocale, useCatalog } from 'shared-ui';
import { useCommonRefusals } from '../../../lib/refusals/i18n';
import { dialogCatalog, type DialogMessageId } from '../i18n';
import en from '../locales/en.json';
import { apiErrorText, BY_CODE, FLOW_MESSAGES, slotWhenValues, type DialogWords } from './dialogText';

/** The dialog's words as its components get them, following the page's language. */
function dialogWords(): () => DialogWords {
  const { result } = renderHook(() => ({ ...useCatalog(dialogCatalog), common: useCommonRefusals() }));
  return () => result.current;
}
const refused = (message: string | undefined, code?: string, reason?: ErrorReason) => ({
  status: 409,
  data: { success: false, data: null, message, error: code, ...(reason && { reason }) },
});

afterEach(async () => {
  await act(() => activateLocale('en'));
});

describe('the dialog’s words for the contract’s texts', () => {
  it('keeps the contract’s English words under the contract’s keys, so English is unchanged', () => {
    for (const key of FLOW_MESSAGES) expect(en[key]).toBe(BookingMessage[key]);
    expect(en.holdLimit).toBe(HoldMessage.limit);
  });

  it('says the hold-time cap with the contract\'s numbers, in English word for word as the server does', () => {
    const { t } = dialogWords()();
    expect(t('holdTimeUsed', { minutes: HOLD_TIME_CAP_MINUTES, hours: HOLD_TIME_WINDOW_MINUTES / 60 })).toBe(HoldMessage.timeUsed);
    expect(t('visitorHasHold', { minutes: HOLD_MINUTES })).toBe(HoldMessage.visitorHasHold);
    expect(HoldMessage.visitorHasHold).toContain(`(within ${HOLD_MINUTES} minutes)`);
  });

  it('says a refused form rule in the page’s language from the reason’s rule, whatever the server’s words', async () => {
    const words = dialogWords();
    const phone = refused('Reworded by the server', 'VALIDATION_ERROR', { rule: 'phoneInvalid', params: { min: 8, max: 15 }, field: 'visitorContactNo' });
    expect(apiErrorText(phone, words(), 'initiationFailed')).toBe('Reworded by the server');
    await act(() => activateLocale('ms'));
    expect(apiErrorText(phone, words(), 'initiationFailed')).toBe('Sila masukkan nombor telefon yang sah (8-15 digit)');
    await act(() => activateLocale('zh'));
    expect(apiErrorText(refused(ValidationMessage.schoolRequired, 'VALIDATION_ERROR', { rule: 'schoolRequired', field: 'selectedSchool' }), words(), 'initiationFailed')).toBe(
      '请选择学校',
    );
  });

  it('never reads the English words: a contract sentence without its rule stays as it came', async () => {
    const words = dialogWords();
    await act(() => activateLocale('zh'));
    expect(apiErrorText(refused(ValidationMessage.schoolRequired, 'VALIDATION_ERROR'), words(), 'initiationFailed')).toBe(ValidationMessage.schoolRequired);
    // zod's own check (no rule of the form's): the server's words as they came.
    expect(apiErrorText(refused('visitorName: too long', 'VALIDATION_ERROR', { rule: 'too_big', params: { maximum: 1000 } }), words(), 'initiationFailed')).toBe(
      'visitorName: too long',
    );
    // A form rule under another code is not a form refusal: the code's own meaning stands.
    expect(apiErrorText(refused('whatever', 'FEE_MISMATCH', { rule: 'schoolRequired' }), words(), 'initiationFailed')).toBe(words().t('feeMismatch'));
  });

  it('in English shows the server’s own words; elsewhere the code’s text, the unknown words, or the fallback', async () => {
    const words = dialogWords();
    expect(apiErrorText(refused('Gateway is down', 'GATEWAY_ERROR'), words(), 'initiationFailed')).toBe('Gateway is down');
    expect(apiErrorText(refused(undefined), words(), 'initiationFailed')).toBe(BookingMessage.initiationFailed);
    await act(() => activateLocale('zh'));
    expect(apiErrorText(refused('Gateway is down', 'GATEWAY_ERROR'), words(), 'initiationFailed')).toBe('付款服务暂时无法使用，请重试。');
    expect(apiErrorText(refused('whatever', 'VISITOR_HAS_HOLD'), words(), 'initiationFailed')).toBe(
      `您已使用此电子邮件地址或电话号码保留了另一个时段。请先完成或取消该预约，或在其保留结束后（${HOLD_MINUTES}分钟内）再试。`,
    );
    expect(apiErrorText(refused(undefined), words(), 'initiationFailed')).toBe('无法发起付款，请重试。');
  });

  it('says the numbers the reason gives, else the contract’s', async () => {
    const words = dialogWords();
    await act(() => activateLocale('ms'));
    expect(apiErrorText(refused('whatever', 'VISITOR_HAS_HOLD'), words(), 'initiationFailed')).toContain(`${HOLD_MINUTES} minit`);
    expect(apiErrorText(refused('whatever', 'VISITOR_HAS_HOLD', { rule: 'visitorHasHold', params: { minutes: 7 } }), words(), 'initiationFailed')).toContain('7 minit');
  });

  it('chooses the text by the error code, whatever the server’s sentence', async () => {
    const words = dialogWords();
    await act(() => activateLocale('ms'));
    for (const [code, id] of Object.entries(BY_CODE)) {
      expect(apiErrorText(refused('Reworded by the server', code), words(), 'initiationFailed')).toBe(
        words().t(id as DialogMessageId, id === 'visitorHasHold' ? { minutes: HOLD_MINUTES } : undefined),
      );
    }
    expect(apiErrorText(refused('Reworded by the server', 'SLOT_NOT_AVAILABLE'), words(), 'initiationFailed')).toBe('Slot ini tidak tersedia. Sila pilih slot lain.');
    // The refusals every page says alike.
    expect(apiErrorText(refused('Reworded by the server', 'RATE_LIMITED'), words(), 'initiationFailed')).toBe('Terlalu banyak permintaan. Sila tunggu sebentar dan cuba lagi.');
    expect(apiErrorText(refused('Reworded by the server', 'NOTICE_OUTDATED'), words(), 'initiationFailed')).toMatch(/^Notis privasi telah berubah/);
    expect(apiErrorText(refused(BookingMessage.slotReserved), words(), 'initiationFailed')).toBe(BookingMessage.slotReserved);
  });

  it('names a slot’s day and time in each language', async () => {
    expect(slotWhenValues('2026-11-26', '2:30 PM', 'en')).toEqual({ date: 'Thursday 26 November 2026', time: '2:30 PM' });
    await act(() => activateLocale('ms'));
    expect(slotWhenValues('2026-11-26', '14:30', 'ms')).toEqual({ date: 'Khamis, 26 November 2026', time: '2:30 petang' });
    await act(() => activateLocale('zh'));
    expect(slotWhenValues('2026-11-26', '09:00', 'zh')).toEqual({ date: '2026年11月26日 星期四', time: '上午9:00' });
  });
});
