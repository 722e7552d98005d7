import { useRef, type FormEvent, type MutableRefObject } from 'react';
import { FormProvider, useForm, type FieldErrors } from 'react-hook-form';
import { formatRM, schoolName, type ConsentInput, type VisitorDetails, type VisitorDetailsInput } from 'shared-api';
import { currentNoticeVersion } from 'shared-api/privacy';
import { Stack, useCatalog, useToast } from 'shared-ui';
import { dialogCatalog } from '../i18n';
import { validationToastErrors } from '../utils/validationToasts';
import { CONSENT_ID, PrivacyConsent, useConsent } from '../../../lib/privacy-consent/PrivacyConsent';
import { consentCatalog } from '../../../lib/privacy-consent/i18n';
import { EMPTY_VISITOR_DETAILS, fieldErrorText, VisitorFields } from '../../../lib/visitor-fields/VisitorFields';
import { visitorCatalog } from '../../../lib/visitor-fields/i18n';
import { visitorResolver } from '../../../lib/visitor-fields/visitorResolver';

export const DETAILS_FORM_ID = 'booking-details-form';

export type SchoolOption = { name: string; feeSen: number };

type Props = {
  schools: SchoolOption[];
  pricingLoading: boolean;
  /** Server pricing failed: the options show the configured standard fees. */
  pricingFailed?: boolean;
  defaultValues?: Partial<VisitorDetailsInput>;
  /** The parent already agreed (coming back from the summary): the box stays ticked. */
  consented?: boolean;
  onValid: (values: VisitorDetails, consent: ConsentInput) => void;
  /** Set to a reader of what is typed now and whether the consent is ticked (the dialog keeps both when the time goes). */
  readTyped?: MutableRefObject<(() => TypedNow) | null>;
};

export type TypedNow = { details: Partial<VisitorDetailsInput>; consented: boolean };

/** What was typed, without the spaces around it (as the rules read it). */
const trimmed = (values: VisitorDetailsInput): Partial<VisitorDetailsInput> =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]));

/** Step 1: the visitor's details, the child's, the school and the year applied for, validated by the contract's rules on submit. */
export function DetailsStep({ schools, pricingLoading, pricingFailed = false, defaultValues, consented = false, onValid, readTyped }: Props) {
  const toast = useToast();
  const { t, locale } = useCatalog(dialogCatalog);
  const visitorWords = useCatalog(visitorCatalog);
  const consentWords = useCatalog(consentCatalog);
  const form = useForm<VisitorDetailsInput, unknown, VisitorDetails>({
    resolver: visitorResolver,
    defaultValues: { ...EMPTY_VISITOR_DETAILS, ...defaultValues },
  });
  // The rules' toasts of the last refused submit: gone once the parent submits again (they would speak of mistakes
  // already fixed, over the summary).
  const ruleToasts = useRef<string[]>([]);
  const clearRuleToasts = () => ruleToasts.current.splice(0).forEach((id) => toast.dismiss(id));

  const onInvalid = (fieldErrors: FieldErrors<VisitorDetailsInput>) => {
    clearRuleToasts();
    // One toast at a time: the first rule in the form's order, where the focus is (each field says its own inline).
    for (const error of validationToastErrors(fieldErrors).slice(0, 1))
      ruleToasts.current.push(toast.error(fieldErrorText(error, visitorWords.t)));
  };

  // The consent is asked beside the form's fields but is not one of the visitor's details (the contract's schema).
  const consent = useConsent(consented);
  if (readTyped) readTyped.current = () => ({ details: trimmed(form.getValues()), consented: consent.given });
  const onValidDetails = (values: VisitorDetails) => {
    clearRuleToasts();
    if (!consent.given) {
      ruleToasts.current.push(toast.error(consentWords.t('consentRequired')));
      document.getElementById(CONSENT_ID)?.focus();
      return;
    }
    // The version and language of the notice this page shows: the server records them (and refuses an outdated one).
    onValid(values, { noticeVersion: currentNoticeVersion(), language: locale });
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    consent.check();
    return form.handleSubmit(onValidDetails, onInvalid)(event);
  };

  return (
    <FormProvider {...form}>
      <form id={DETAILS_FORM_ID} noValidate onSubmit={submit}>
        <Stack gap={4}>
          <VisitorFields
            schools={schools.map((option) => ({ name: option.name, label: t('schoolOption', { school: schoolName(option.name, locale), fee: formatRM(option.feeSen, locale) }) }))}
            schoolHint={pricingLoading ? t('loadingFees') : pricingFailed ? t('pricingFailedHint') : undefined}
          />
          <PrivacyConsent {...consent.props} />
        </Stack>
      </form>
    </FormProvider>
  );
}
