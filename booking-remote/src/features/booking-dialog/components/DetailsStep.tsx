import { useRef, useState, type FormEvent, type MutableRefObject } from 'react';
import { FormProvider, useFieldArray, useForm, type FieldErrors } from 'react-hook-form';
import { CHECKOUT_MAX_CHILDREN, formatRM, schoolName, type ConsentInput, type SiblingDetailsInput, type VisitorDetailsInput } from 'shared-api';
import { currentNoticeVersion } from 'shared-api/privacy';
import { Stack, useCatalog, useToast } from 'shared-ui';
import { Field, Select } from 'shared-ui/forms';
import { dialogCatalog } from '../i18n';
import { validationToastErrors } from '../utils/validationToasts';
import { CONSENT_ID, PrivacyConsent, useConsent } from '../../../lib/privacy-consent/PrivacyConsent';
import { consentCatalog } from '../../../lib/privacy-consent/i18n';
import { WhatsAppOptIn } from '../../../lib/whatsapp-opt-in/WhatsAppOptIn';
import { EMPTY_VISITOR_DETAILS, fieldErrorText, VisitorFields } from '../../../lib/visitor-fields/VisitorFields';
import { visitorCatalog } from '../../../lib/visitor-fields/i18n';
import { detailsResolver, type DetailsFormInput, type DetailsFormValues } from '../siblings/detailsResolver';
import { SiblingFields } from '../siblings/SiblingFields';

export const DETAILS_FORM_ID = 'booking-details-form';

export type SchoolOption = { name: string; feeSen: number };

type Props = {
  schools: SchoolOption[];
  pricingLoading: boolean;
  /** Server pricing failed: the options show the configured standard fees. */
  pricingFailed?: boolean;
  defaultValues?: Partial<VisitorDetailsInput> & { siblings?: SiblingDetailsInput[] };
  /** The most children this checkout may book (the time's free places, at most CHECKOUT_MAX_CHILDREN); 1: no question. */
  maxChildren?: number;
  /** The parent already agreed (coming back from the summary): the box stays ticked. */
  consented?: boolean;
  /** The WhatsApp opt-in as the parent left it (coming back, or another time chosen). */
  whatsapp?: boolean;
  onValid: (values: DetailsFormValues, consent: ConsentInput) => void;
  /** Set to a reader of what is typed now and whether the consent is ticked (the dialog keeps both when the time goes). */
  readTyped?: MutableRefObject<(() => TypedNow) | null>;
};

export type TypedNow = { details: Partial<VisitorDetailsInput> & { siblings?: SiblingDetailsInput[] }; consented: boolean; whatsapp: boolean };

/** What was typed, without the spaces around it (as the rules read it). */
const trimmed = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : Array.isArray(value) ? value.map((item: object) => trimmed(item)) : value]),
  ) as Partial<T>;

const EMPTY_SIBLING: SiblingDetailsInput = { childName: '', selectedSchool: '', childYear: '' };

/** Step 1: the visitor's details, the child's, the school and the year applied for, validated by the contract's rules on submit. */
export function DetailsStep({ schools, pricingLoading, pricingFailed = false, defaultValues, maxChildren = 1, consented = false, whatsapp: whatsappBefore = false, onValid, readTyped }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const visitorWords = useCatalog(visitorCatalog);
  const consentWords = useCatalog(consentCatalog);
  // Children typed before (another time, a declined card) are kept even where fewer places are free now: the parent
  // chooses fewer, or the server says there are not enough places (nothing typed is dropped unseen).
  const typedSiblings = (defaultValues?.siblings ?? []).slice(0, CHECKOUT_MAX_CHILDREN - 1);
  const most = Math.max(maxChildren, 1 + typedSiblings.length);
  const form = useForm<DetailsFormInput, unknown, DetailsFormValues>({
    resolver: detailsResolver,
    defaultValues: { ...EMPTY_VISITOR_DETAILS, ...defaultValues, siblings: typedSiblings },
  });
  // Brothers and sisters at the same time (issue 37): as many as the parent says, up to the time's free places.
  const siblings = useFieldArray({ control: form.control, name: 'siblings' });
  const [children, setChildren] = useState(1 + siblings.fields.length);
  const chooseChildren = (count: number) => {
    setChildren(count);
    const now = form.getValues('siblings') ?? [];
    siblings.replace(Array.from({ length: count - 1 }, (_, i) => now[i] ?? EMPTY_SIBLING));
  };
  // The rules' toasts of the last refused submit: gone once the parent submits again (they would speak of mistakes
  // already fixed, over the summary).
  const ruleToasts = useRef<string[]>([]);
  const clearRuleToasts = () => ruleToasts.current.splice(0).forEach((id) => toast.dismiss(id));

  const onInvalid = (fieldErrors: FieldErrors<DetailsFormInput>) => {
    clearRuleToasts();
    // One toast at a time: the first rule in the form's order, where the focus is (each field says its own inline).
    const { siblings: siblingErrors, ...visitorErrors } = fieldErrors;
    const firstSibling = (siblingErrors as unknown as (FieldErrors<SiblingDetailsInput> | undefined)[] | undefined)?.find(Boolean);
    for (const error of [...validationToastErrors(visitorErrors as FieldErrors<VisitorDetailsInput>), ...(firstSibling ? validationToastErrors(firstSibling as FieldErrors<VisitorDetailsInput>) : [])].slice(0, 1))
      ruleToasts.current.push(toast.error(fieldErrorText(error, visitorWords.t)));
  };

  // The consent is asked beside the form's fields but is not one of the visitor's details (the contract's schema).
  const consent = useConsent(consented);
  const [whatsapp, setWhatsapp] = useState(whatsappBefore);
  if (readTyped) readTyped.current = () => ({ details: trimmed(form.getValues()), consented: consent.given, whatsapp });
  const onValidDetails = (values: DetailsFormValues) => {
    clearRuleToasts();
    if (!consent.given) {
      ruleToasts.current.push(toast.error(consentWords.t('consentRequired')));
      document.getElementById(CONSENT_ID)?.focus();
      return;
    }
    // The version and language of the notice this page shows: the server records them (and refuses an outdated one).
    onValid(values, { noticeVersion: currentNoticeVersion(), language: locale, whatsapp });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    consent.check();
    return form.handleSubmit(onValidDetails, onInvalid)(event);
  };

  const choices = schools.map((option) => ({ name: option.name, label: t('schoolOption', { school: schoolName(option.name, locale), fee: formatRM(option.feeSen, locale) }) }));
  return (
    <FormProvider {...form}>
      <form id={DETAILS_FORM_ID} noValidate onSubmit={submit}>
        <Stack gap={4}>
          {most > 1 && (
            <Field label={t('howManyChildren')} htmlFor="childrenCount" hint={t('howManyChildrenHint', { count: maxChildren })}>
              <Select value={String(children)} onChange={(event) => chooseChildren(Number(event.target.value))}>
                {Array.from({ length: most }, (_, i) => (
                  <option key={i + 1} value={i + 1}>
                    {i + 1}
                  </option>
                ))}
              </Select>
            </Field>
          )}
          <VisitorFields
            schools={choices}
            schoolHint={pricingLoading ? t('loadingFees') : pricingFailed ? t('pricingFailedHint') : undefined}
            afterContact={<WhatsAppOptIn purpose="booking" checked={whatsapp} onCheckedChange={setWhatsapp} />}
          />
          {siblings.fields.map((field, index) => (
            <SiblingFields key={field.id} index={index} schools={choices} />
          ))}
          <PrivacyConsent {...consent.props} />
        </Stack>
      </form>
    </FormProvider>
  );
}
