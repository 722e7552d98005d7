import { ErrorCode } from 'shared-api';
import type { ValidationRule } from 'shared-api/messages';
import { defineCatalog, type Translate } from 'shared-ui';
import en from './locales/en.json';

/**
 * The visitor's and the child's fields (booking form, waitlist form): their labels and the contract's rules on them.
 * A rule's id is its ValidationMessage key, and its English is the contract's words.
 */
export const visitorCatalog = defineCatalog('booking.visitor', en, {
  ms: () => import('./locales/ms.json'),
  zh: () => import('./locales/zh.json'),
});

export type VisitorTextId = keyof typeof en;
export type VisitorTranslate = Translate<typeof en>;

/** The contract's rules on the visitor's details, each said by this catalogue. */
export const VISITOR_RULES = [
  'nameTooShort',
  'emailInvalid',
  'phoneInvalid',
  'schoolRequired',
  'nameRequired',
  'emailRequired',
  'contactRequired',
  'childNameRequired',
  'childNameTooShort',
  'childYearRequired',
  'childYearInvalid',
] as const satisfies readonly (ValidationRule & VisitorTextId)[];
export type VisitorRule = (typeof VISITOR_RULES)[number];

export const isVisitorRule = (rule: string | undefined): rule is VisitorRule => (VISITOR_RULES as readonly string[]).includes(rule ?? '');

/** The visitor rule a refused call names (a VALIDATION_ERROR's reason), said by this catalogue. */
export const visitorRuleOf = ({ code, reason }: { code?: string; reason?: { rule: string } }): VisitorRule | undefined =>
  code === ErrorCode.VALIDATION_ERROR && isVisitorRule(reason?.rule) ? reason.rule : undefined;
