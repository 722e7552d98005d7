import { act, renderHook } from '@testing-library/react';
import { HOLD_MINUTES, HOLD_TIME_CAP_MINUTES, HOLD_TIME_WINDOW_MINUTES } from 'shared-api';
import { BookingMessage, ValidationMessage } from 'shared-api/messages';
import { HoldMessage } from 'shared-api/schemas';
import { activateLocale, useCatalog } from 'shared-ui';
import { dialogCatalog, type DialogMessageId } from '../i18n';
import en from '../locales/en.json';
import { apiErrorText, BY_CODE, FLOW_MESSAGES, FORM_RULES, slotWhenValues, validationText } from './dialogText';

/** The dialog's `t` as its components get it, following the page's language. */
function translator() {
  const { result } = renderHook(() => useCatalog(dialogCatalog));
  return (id: DialogMessageId, values?: Record<string, string | number | undefined>) => result.current.t(id, values);
}
const refused = (message: string | undefined, code?: string) => ({ status: 409, data: { success: false, data: null, message, error: code } });

afterEach(async () => {
  await act(() => activateLocale('en'));
});

describe('the dialog’s words for the contract’s texts', () => {
  it('keeps the contract’s English words under the contract’s keys, so English is unchanged', () => {
    for (const key of FORM_RULES) expect(en[key]).toBe(ValidationMessage[key]);
    for (const key of FLOW_MESSAGES) expect(en[key]).toBe(BookingMessage[key]);
    expect(en.holdLimit).toBe(HoldMessage.limit);
    expect(en.checking).toBe(HoldMessage.checking);
  });

  it('says the hold-time cap with the contract\'s numbers, in English word for word as the server does', () => {
    const t = translator();
    expect(t('holdTimeUsed', { minutes: HOLD_TIME_CAP_MINUTES, hours: HOLD_TIME_WINDOW_MINUTES / 60 })).toBe(HoldMessage.timeUsed);
    expect(t('visitorHasHold', { minutes: HOLD_MINUTES })).toBe(HoldMessage.visitorHasHold);
    expect(HoldMessage.visitorHasHold).toContain(`(within ${HOLD_MINUTES} minutes)`);
  });

  it('says a form rule in the page’s language and leaves any other message as it came', async () => {
    const t = translator();
    expect(validationText(ValidationMessage.phoneInvalid, t)).toBe('Please enter a valid phone number (8-15 digits)');
    await act(() => activateLocale('ms'));
    expect(validationText(ValidationMessage.phoneInvalid, t)).toBe('Sila masukkan nombor telefon yang sah (8-15 digit)');
    expect(validationText('Something else', t)).toBe('Something else');
    expect(validationText(undefined, t)).toBeUndefined();
    await act(() => activateLocale('zh'));
    expect(validationText(ValidationMessage.nameRequired, t)).toBe('请填写姓名');
  });

  it('in English shows the server’s own words; elsewhere the code’s text, a known text, the unknown words, or the fallback', async () => {
    const t = translator();
    expect(apiErrorText(refused('Gateway is down', 'GATEWAY_ERROR'), t, 'en', 'initiationFailed')).toBe('Gateway is down');
    expect(apiErrorText(refused(undefined), t, 'en', 'initiationFailed')).toBe(BookingMessage.initiationFailed);
    await act(() => activateLocale('zh'));
    expect(apiErrorText(refused('Gateway is down', 'GATEWAY_ERROR'), t, 'zh', 'initiationFailed')).toBe('付款服务暂时无法使用，请重试。');
    expect(apiErrorText(refused('whatever', 'VISITOR_HAS_HOLD'), t, 'zh', 'initiationFailed')).toBe(
      `您已使用此电子邮件地址或电话号码保留了另一个时段。请先完成或取消该预约，或在其保留结束后（${HOLD_MINUTES}分钟内）再试。`,
    );
    expect(apiErrorText(refused(ValidationMessage.schoolRequired, 'VALIDATION_ERROR'), t, 'zh', 'initiationFailed')).toBe('请选择学校');
    expect(apiErrorText(refused('visitorName: too long', 'VALIDATION_ERROR'), t, 'zh', 'initiationFailed')).toBe('visitorName: too long');
    expect(apiErrorText(refused(undefined), t, 'zh', 'initiationFailed')).toBe('无法发起付款，请重试。');
  });

  it('chooses the text by the error code, whatever the server’s sentence', async () => {
    const t = translator();
    await act(() => activateLocale('ms'));
    for (const [code, id] of Object.entries(BY_CODE)) {
      expect(apiErrorText(refused('Reworded by the server', code), t, 'ms', 'initiationFailed')).toBe(t(id!, id === 'visitorHasHold' ? { minutes: HOLD_MINUTES } : undefined));
    }
    expect(apiErrorText(refused('Reworded by the server', 'SLOT_NOT_AVAILABLE'), t, 'ms', 'initiationFailed')).toBe(
      'Slot ini tidak tersedia. Sila pilih slot lain.',
    );
    // A contract sentence under another code is not looked up: only VALIDATION_ERROR names a form rule by its words.
    expect(apiErrorText(refused(ValidationMessage.schoolRequired, 'FEE_MISMATCH'), t, 'ms', 'initiationFailed')).toBe(t('feeMismatch'));
    expect(apiErrorText(refused(BookingMessage.slotReserved), t, 'ms', 'initiationFailed')).toBe(BookingMessage.slotReserved);
  });

  it('names a slot’s day and time in each language', async () => {
    expect(slotWhenValues('2026-11-26', '2:30 PM', 'en')).toEqual({ date: 'Thursday 26 November 2026', time: '2:30 PM' });
    await act(() => activateLocale('ms'));
    expect(slotWhenValues('2026-11-26', '14:30', 'ms')).toEqual({ date: 'Khamis, 26 November 2026', time: '2:30 petang' });
    await act(() => activateLocale('zh'));
    expect(slotWhenValues('2026-11-26', '09:00', 'zh')).toEqual({ date: '2026年11月26日 星期四', time: '上午9:00' });
  });
});
