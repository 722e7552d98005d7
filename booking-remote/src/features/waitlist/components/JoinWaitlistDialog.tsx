import { useEffect, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { brand, DEFAULT_LOCALE, schoolName, type VisitorDetailsInput } from 'shared-api';
import { currentNoticeVersion } from 'shared-api/privacy';
import { isSchoolYear, schoolYearName, schoolYears } from 'shared-api/schools';
import { ValidationMessage } from 'shared-api/messages';
import { WAITLIST_PARTS_OF_DAY, waitlistSettings } from 'shared-api/waitlist';
import { Button, Stack, styled, useCatalog } from 'shared-ui';
import { Dialog, Field, Input, Select } from 'shared-ui/forms';
import { withHoldChallenge } from '../../../lib/hold-limit/holdLimit';
import { CONSENT_ID, PrivacyConsent } from '../../../lib/privacy-consent/PrivacyConsent';
import { useJoinWaitlistMutation } from '../api/waitlistApi';
import { waitlistCatalog, type WaitlistTextId } from '../i18n';
import { DATES_ERROR_PREFIX, DATES_TEXT, initialDates, joinResolver, type JoinFormInput, type JoinFormValues } from '../utils/joinForm';
import { dayText, errorText } from '../utils/words';

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

/** Two date fields side by side where there is room, one above the other on a phone. */
const DateRow = styled.div`
  display: grid;
  align-items: end;
  grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr));
  gap: ${({ theme }) => theme.space[3]};
`;

const RULES = [
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
] as const satisfies readonly (keyof typeof ValidationMessage & WaitlistTextId)[];

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
  const words = useCatalog(waitlistCatalog);
  const { t, locale } = words;
  const settings = waitlistSettings();
  const [dates] = useState(() => initialDates(day));
  const [join, joining] = useJoinWaitlistMutation();
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [consented, setConsented] = useState(false);
  const [consentMissing, setConsentMissing] = useState(false);
  const {
    register,
    handleSubmit,
    watch,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<JoinFormInput, unknown, JoinFormValues>({
    resolver: joinResolver,
    defaultValues: {
      visitorName: '',
      visitorEmail: '',
      visitorContactNo: '',
      childName: '',
      selectedSchool: '',
      childYear: '',
      ...initialDetails,
      fromDate: dates.fromDate,
      toDate: dates.toDate,
      partOfDay: 'any',
    },
  });
  const school = watch('selectedSchool');
  // The browser's date field writes the day as its own locale does (12/04/2026 can be read two ways): say it in words.
  const spelled = (date: string | undefined) => (date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? dayText(date, locale) : undefined);
  const [fromDate, toDate] = watch(['fromDate', 'toDate']);
  const years = schoolYears(school);
  useEffect(() => {
    const year = getValues('childYear');
    if (year && !isSchoolYear(school, year)) setValue('childYear', '');
  }, [school, getValues, setValue]);

  const text = (message: string | undefined): string | undefined => {
    if (!message) return undefined;
    if (message.startsWith(DATES_ERROR_PREFIX)) {
      const problem = message.slice(DATES_ERROR_PREFIX.length) as keyof typeof DATES_TEXT;
      return t(DATES_TEXT[problem] ?? 'datesPast', { weeks: settings.weeksAhead });
    }
    const rule = RULES.find((key) => ValidationMessage[key] === message);
    return rule ? t(rule) : message;
  };

  const onValid = async (values: JoinFormValues) => {
    if (!consented) {
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
            fromDate: values.fromDate,
            toDate: values.toDate,
            partOfDay: values.partOfDay,
            locale: locale ?? DEFAULT_LOCALE,
            privacyConsent: { noticeVersion: currentNoticeVersion(), language: locale },
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
    setConsentMissing(!consented);
    return handleSubmit(onValid)(event);
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
          <p role="status">{t('checkEmail', { email: sentTo })}</p>
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
      <form id={JOIN_FORM_ID} noValidate onSubmit={submit}>
        <Stack gap={4}>
          <Lead>{reason === 'taken' ? t('takenLead') : t('joinLead', { minutes: settings.offerMinutes })}</Lead>
          {checking && <Muted role="status">{t('checking')}</Muted>}
          {failure && <ErrorText role="alert">{failure}</ErrorText>}
          <Field label={t('visitorName')} htmlFor="visitorName" error={text(errors.visitorName?.message)}>
            <Input type="text" autoComplete="name" {...register('visitorName')} />
          </Field>
          <Field label={t('emailAddress')} htmlFor="visitorEmail" error={text(errors.visitorEmail?.message)}>
            <Input type="email" autoComplete="email" inputMode="email" {...register('visitorEmail')} />
          </Field>
          <Field label={t('contactNumber')} htmlFor="visitorContactNo" error={text(errors.visitorContactNo?.message)}>
            <Input type="tel" autoComplete="tel" inputMode="tel" placeholder={t('contactPlaceholder')} {...register('visitorContactNo')} />
          </Field>
          <Field label={t('childName')} htmlFor="childName" error={text(errors.childName?.message)}>
            <Input type="text" autoComplete="off" {...register('childName')} />
          </Field>
          <Field label={t('selectedSchool')} htmlFor="selectedSchool" error={text(errors.selectedSchool?.message)}>
            <Select {...register('selectedSchool')}>
              <option value="">{t('selectSchool')}</option>
              {brand.schools.map((option) => (
                <option key={option.name} value={option.name}>
                  {schoolName(option.name, locale)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('childYear')} htmlFor="childYear" error={text(errors.childYear?.message)}>
            <Select {...register('childYear')}>
              <option value="">{years.length > 0 ? t('selectYear') : t('selectSchoolFirst')}</option>
              {years.map((year) => (
                <option key={year.name} value={year.name}>
                  {schoolYearName(school, year.name, locale)}
                </option>
              ))}
            </Select>
          </Field>
          <DateRow>
            <Field label={t('fromDate')} htmlFor="fromDate" hint={spelled(fromDate)} error={text(errors.fromDate?.message)}>
              <Input type="date" min={dates.min} max={dates.max} {...register('fromDate')} />
            </Field>
            <Field label={t('toDate')} htmlFor="toDate" hint={spelled(toDate)} error={text(errors.toDate?.message)}>
              <Input type="date" min={dates.min} max={dates.max} {...register('toDate')} />
            </Field>
          </DateRow>
          <Muted>{t('datesHint', { weeks: settings.weeksAhead })}</Muted>
          <Field label={t('partOfDay')} htmlFor="partOfDay">
            <Select {...register('partOfDay')}>
              {WAITLIST_PARTS_OF_DAY.map((part) => (
                <option key={part} value={part}>
                  {t(`partOfDay.${part}`)}
                </option>
              ))}
            </Select>
          </Field>
          <PrivacyConsent
            checked={consented}
            onCheckedChange={(checked) => {
              setConsented(checked);
              if (checked) setConsentMissing(false);
            }}
            error={consentMissing ? t('consentRequired') : undefined}
          />
        </Stack>
      </form>
    </Dialog>
  );
}
