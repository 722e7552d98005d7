import { ValidationMessage } from 'shared-api/messages';
import en from './locales/en.json';
import { VISITOR_RULES, visitorCatalog, visitorRuleOf } from './i18n';

describe('the visitor fields’ rules', () => {
  it('keeps the contract’s English words under the contract’s rule ids, so English is unchanged', () => {
    for (const rule of VISITOR_RULES) expect(en[rule]).toBe(ValidationMessage[rule]);
  });

  it('has each rule in Malay and Chinese', async () => {
    await Promise.all([visitorCatalog.ready('ms'), visitorCatalog.ready('zh')]);
    for (const rule of VISITOR_RULES) {
      expect(visitorCatalog.translate('ms', rule)).not.toBe(en[rule]);
      expect(visitorCatalog.translate('zh', rule)).not.toBe(en[rule]);
    }
  });

  it('names the rule a VALIDATION_ERROR’s reason gives, and nothing for another code or an unknown rule', () => {
    expect(visitorRuleOf({ code: 'VALIDATION_ERROR', reason: { rule: 'childYearInvalid' } })).toBe('childYearInvalid');
    expect(visitorRuleOf({ code: 'VALIDATION_ERROR', reason: { rule: 'too_big' } })).toBeUndefined();
    expect(visitorRuleOf({ code: 'VALIDATION_ERROR', reason: { rule: 'toString' } })).toBeUndefined();
    expect(visitorRuleOf({ code: 'FEE_MISMATCH', reason: { rule: 'phoneInvalid' } })).toBeUndefined();
    expect(visitorRuleOf({ code: 'VALIDATION_ERROR' })).toBeUndefined();
  });
});
