import { useState, type FormEvent } from 'react';
import { FormProvider, useForm, type FieldError } from 'react-hook-form';
import { brand, DEFAULT_LOCALE, schoolName, type VisitorDetailsInput } from 'shared-api';
import { currentNoticeVersion } from 'shared-api/privacy';
import { WAITLIST_CONFIRM_HOURS, waitlistSettings } from 'shared-api/waitlist';
import { Button, Stack, styled, useCatalog } from 'shared-ui';
import { Dialog, Field, Select } from 'shared-ui/forms';
import { withHoldChallenge } from '../../../lib/hold-limit/holdLimit';
import { holdLimitCatalog } from '../../../lib/hold-limit/i18n';
import { CONSENT_ID, PrivacyConsent, useConsent } from '../../../lib/privacy-consent/PrivacyConsent';
import { EMPTY_VISITOR_DETAILS, VisitorFields } from '../../../lib/visitor-fields/VisitorFields';
import { WhatsAppOptIn } from '../../../lib/whatsapp-opt-in/WhatsAppOptIn';
import { useJoinWaitlistMutation } from '../api/waitlistApi';
import { useWaitlistWords } from '../i18n';
import { initialDates, joinResolver, type JoinFormInput, type JoinFormValues } from '../utils/joinForm';
import { datesText, errorText, isDatesProblem } from '../utils/words';
import { DatesFields } from './DatesFields';

export const JOIN_FORM_ID = 'waitlist-join-form';

const Lead = styled.p`
  margin: 0;
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
`;

const ErrorText = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.danger};
`;

type Props = {
  onClose: () => void;
  /** The full day the parent came from: the first day of the range. */
  day?: string;
  /** What the parent typed in the booking form (the chosen time was taken meanwhile). */
  initialDetails?: Partial<VisitorDetailsInput>;
  /** 'taken': opened because the time chosen in the booking dialog was taken; 'full': from a full day or week. */
  reason?: 'full' | 'taken';
};

/** "Join the waitlist": the booking form's fields and rules, the days the parent can come, the consent; then "Check your email". */
export function JoinWaitlistDialog({ onClose, day, initialDetails, reason = 'full' }: Props) {
  const words = useWaitlistWords();
  const { t, locale } = words;
  const holdLimit = useCatalog(holdLimitCatalog).t;
  const settings = waitlistSettings();
  const [dates] = useState(() => initialDates(day));
  const [join, joining] = useJoinWaitlistMutation();
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  /** How many children the entry is for (1–4): the places an offer will hold together. */
  const [children, setChildren] = useState(1);
  const consent = useConsent();
  const [whatsapp, setWhatsapp] = useState(false);
  const form = useForm<JoinFormInput, unknown, JoinFormValues>({
    resolver: joinResolver,
    defaultValues: {
      ...EMPTY_VISITOR_DETAILS,
      ...initialDetails,
      fromDate: dates.fromDate,
      toDate: dates.toDate,
      partOfDay: 'any',
    },
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const [fromDate, toDate] = watch(['fromDate', 'toDate']);
  /** A date field's error: the dates problem the resolver names, in the page's language. */
  const datesError = (error: FieldError | undefined) =>
    error && (isDatesProblem(error.type) ? datesText(error.type, t) : error.message);

  const onValid = async (values: JoinFormValues) => {
    if (!consent.given) {
      document.getElementById(CONSENT_ID)?.focus();
      return;
    }
    setFailure(null);
    try {
      await withHoldChallenge(
        (proofOfWork) =>
          join({
            name: values.visitorName,
            email: values.visitorEmail,
            phone: values.visitorContactNo,
            school: values.selectedSchool,
            childName: values.childName,
            childYear: values.childYear,
            children,
            fromDate: values.fromDate,
            toDate: values.toDate,
            partOfDay: values.partOfDay,
            locale: locale ?? DEFAULT_LOCALE,
            privacyConsent: { noticeVersion: currentNoticeVersion(), language: locale, whatsapp },
            ...(proofOfWork && { proofOfWork }),
          }).unwrap(),
        setChecking,
      );
      setSentTo(values.visitorEmail);
    } catch (error) {
      setFailure(errorText(error, words, 'joinFailed'));
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    consent.check();
    return form.handleSubmit(onValid)(event);
  };

  if (sentTo) {
    return (
      <Dialog
        open
        onOpenChange={(open) => !open && onClose()}
        title={t('checkEmailTitle')}
        footer={<Button onClick={onClose}>{t('close')}</Button>}
      >
        <Stack gap={3}>
          <p role="status">{t('checkEmail', { email: sentTo, hours: WAITLIST_CONFIRM_HOURS })}</p>
          <p>{t('checkEmailNext', { minutes: settings.offerMinutes })}</p>
          <Muted>{t('checkEmailSpam')}</Muted>
        </Stack>
      </Dialog>
    );
  }

  const busy = joining.isLoading || checking;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('joinTitle')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" form={JOIN_FORM_ID} loading={busy} disabled={busy}>
            {t('submit')}
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={JOIN_FORM_ID} noValidate onSubmit={submit}>
          <Stack gap={4}>
            <Lead>
              {reason === 'taken' ? t('takenLead') : t('joinLead', { minutes: settings.offerMinutes })}
            </Lead>
            {checking && <Muted role="status">{holdLimit('checking')}</Muted>}
            {failure && <ErrorText role="alert">{failure}</ErrorText>}
            <VisitorFields
              afterContact={<WhatsAppOptIn purpose="waitlist" checked={whatsapp} onCheckedChange={setWhatsapp} />}
              schools={brand.schools.map((option) => ({
                name: option.name,
                label: schoolName(option.name, locale),
              }))}
            />
            <Field label={t('childrenCount')} htmlFor="waitlistChildren" hint={t('childrenCountHint')}>
              <Select
                id="waitlistChildren"
                value={String(children)}
                onChange={(event) => setChildren(Number(event.target.value))}
              >
                {[1, 2, 3, 4].map((count) => (
                  <option key={count} value={count}>
                    {count}
                  </option>
                ))}
              </Select>
            </Field>
            <DatesFields
              limits={dates}
              values={{ fromDate, toDate }}
              errors={{ fromDate: datesError(errors.fromDate), toDate: datesError(errors.toDate) }}
              fromDate={register('fromDate')}
              toDate={register('toDate')}
              partOfDay={register('partOfDay')}
              between={<Muted>{t('datesHint', { weeks: settings.weeksAhead })}</Muted>}
            />
            <PrivacyConsent {...consent.props} />
          </Stack>
        </form>
      </FormProvider>
    </Dialog>
  );
}
