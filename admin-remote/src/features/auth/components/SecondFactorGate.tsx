import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { Button, ErrorPanel, Heading, Spinner, Stack, styled, useCatalog } from 'shared-ui';
import { FormOutcomeMessage, InputField, type FormOutcome } from 'shared-ui/forms';
import { Card, CardBody, CardHeader, CardTitle } from 'shared-ui/data';
import { httpStatus, serverMessage, serverRule, useAppDispatch } from 'shared-api';
import { secondFactorCodeBodySchema, type SecondFactorCodeBody } from 'shared-api/accounts';
import { formResolver } from 'shared-api/schemas';
import {
  useConfirmSecondFactorEnrolmentMutation,
  useSecondFactorStatusQuery,
  useStartSecondFactorEnrolmentMutation,
  useVerifySecondFactorMutation,
  steppedUp,
} from '../api/secondFactorApi';
import { authCatalog } from '../i18n';
import en from '../locales/en.json';
import { english } from '../../../lib/i18n';
import { formField } from '../../../lib/formField';
import { useCopy } from '../../../lib/useCopy';
import { SubmitButton } from './SubmitButton';

/** English texts, for tests. */
export const SecondFactorText = english(
  en,
  'secondFactorTitle',
  'secondFactorIntro',
  'secondFactorCode',
  'secondFactorVerify',
  'secondFactorRecoveryHint',
  'secondFactorWrong',
  'secondFactorSetUpTitle',
  'secondFactorSetUpIntro',
  'secondFactorStart',
  'secondFactorScan',
  'secondFactorSecretLabel',
  'secondFactorConfirm',
  'secondFactorCodesTitle',
  'secondFactorCodesIntro',
  'secondFactorCodesSaved',
  'secondFactorCopyCodes',
  'secondFactorContinue',
  'secondFactorLoadFailed',
);

const QrImage = styled.img`
  width: 12rem;
  height: 12rem;
  background: #fff;
`;

const Secret = styled.code`
  display: block;
  margin-top: ${({ theme }) => theme.space[1]};
  font-size: 1rem;
  word-spacing: 0.25em;
`;
// Numbered inside each cell, so a number never runs into the code of the column before it on a phone.
const Codes = styled.ol`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr));
  gap: ${({ theme }) => `${theme.space[1]} ${theme.space[4]}`};
  margin: 0;
  padding: 0;
  list-style-position: inside;
  font-family: ui-monospace, monospace;
  font-size: 1rem;
`;
const Narrow = styled.div`
  max-width: 28rem;
`;

/** The code form of the verify and set-up steps: a 6-digit code (or a recovery code), with the server's refusal. */
function CodeForm({
  submit,
  busy,
  label,
  extra,
}: {
  submit: (code: string) => Promise<FormOutcome>;
  busy: boolean;
  label: string;
  extra?: ReactNode;
}) {
  const { t } = useCatalog(authCatalog);
  const [outcome, setOutcome] = useState<FormOutcome>(null);
  const form = useForm<SecondFactorCodeBody>({
    defaultValues: { code: '' },
    resolver: formResolver(secondFactorCodeBodySchema),
  });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    setOutcome(null);
    const failed = await submit(code);
    if (failed) {
      setOutcome(failed);
      form.setFocus('code');
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label}>
      <Stack>
        <InputField
          label={t('secondFactorCode')}
          id="second-factor-code"
          autoComplete="one-time-code"
          inputMode="text"
          spellCheck={false}
          {...formField(form, 'code')}
        />
        {extra}
        <FormOutcomeMessage outcome={outcome} />
        <SubmitButton busy={busy} busyLabel={t('loading')}>
          {label}
        </SubmitButton>
      </Stack>
    </form>
  );
}

type Failure = Parameters<typeof serverMessage>[0];
/** A refused code in the admin's words; a wait (429) or anything else as the server said it. */
const refusal = (t: (id: keyof typeof en) => string, error: Failure): FormOutcome => {
  if (serverRule(error) === 'codeWrong') return { failed: true, text: t('secondFactorWrong') };
  return { failed: true, text: serverMessage(error) ?? t('secondFactorLoadFailed') };
};

/** First use: scan the QR code, type the app's first code, then keep the 10 recovery codes. */
function Enrolment({ onDone, level }: { onDone: () => void; level: 1 | 3 }) {
  const { t } = useCatalog(authCatalog);
  const [start, started] = useStartSecondFactorEnrolmentMutation();
  const [confirm, confirming] = useConfirmSecondFactorEnrolmentMutation();
  const dispatch = useAppDispatch();
  const [codes, setCodes] = useState<{ recoveryCodes: string[]; steppedUpUntil: string } | null>(null);
  const { copy, state: copyState } = useCopy();

  if (codes)
    return (
      <Stack>
        <Heading level={level}>{t('secondFactorCodesTitle')}</Heading>
        <p>{t('secondFactorCodesIntro')}</p>
        <Codes aria-label={t('secondFactorCodesTitle')}>
          {codes.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </Codes>
        <div>
          <Button variant="secondary" onClick={() => void copy(codes.recoveryCodes.join('\n'))}>
            {copyState === 'copied' ? t('secondFactorCopied') : t('secondFactorCopyCodes')}
          </Button>
        </div>
        <div>
          <Button
            variant="primary"
            onClick={() => {
              dispatch(steppedUp(codes.steppedUpUntil));
              onDone();
            }}
          >
            {t('secondFactorCodesSaved')}
          </Button>
        </div>
      </Stack>
    );

  const enrolment = started.data;
  return (
    <Stack>
      <Heading level={level}>{t('secondFactorSetUpTitle')}</Heading>
      <p>{t('secondFactorSetUpIntro')}</p>
      {!enrolment ? (
        <Stack>
          {started.error && (
            <ErrorPanel message={serverMessage(started.error) ?? t('secondFactorLoadFailed')} />
          )}
          <div>
            <Button variant="primary" loading={started.isLoading} onClick={() => void start()}>
              {t('secondFactorStart')}
            </Button>
          </div>
        </Stack>
      ) : (
        <Narrow>
          <Stack>
            <p>{t('secondFactorScan')}</p>
            <QrImage
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
              alt={t('secondFactorQrAlt')}
            />
            <p>
              {t('secondFactorSecretLabel')}{' '}
              <Secret>{enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}</Secret>
            </p>
            <CodeForm
              label={t('secondFactorConfirm')}
              busy={confirming.isLoading}
              submit={async (code) => {
                const result = await confirm({ code });
                if ('data' in result && result.data) {
                  setCodes(result.data);
                  return null;
                }
                return refusal(t, result.error);
              }}
            />
          </Stack>
        </Narrow>
      )}
    </Stack>
  );
}

/** Every later time: the app's current code, or one recovery code. */
function Verification({ onDone, level }: { onDone: () => void; level: 1 | 3 }) {
  const { t } = useCatalog(authCatalog);
  const [verify, verifying] = useVerifySecondFactorMutation();
  return (
    <Narrow>
      <Stack>
        <Heading level={level}>{t('secondFactorTitle')}</Heading>
        <p>{t('secondFactorIntro')}</p>
        <CodeForm
          label={t('secondFactorVerify')}
          busy={verifying.isLoading}
          extra={<p>{t('secondFactorRecoveryHint')}</p>}
          submit={async (code) => {
            const result = await verify({ code });
            if ('data' in result && result.data) {
              onDone();
              return null;
            }
            return refusal(t, result.error);
          }}
        />
      </Stack>
    </Narrow>
  );
}

type SecondFactorGateProps = {
  children: ReactNode;
  /** A panel of a page (the dashboard's calendar feed): its title and a button first, the form only when asked for. */
  panel?: { title: string; intro: string };
};

/**
 * An admin page, or panel, behind the second factor (issue 35): shown at once within 12 hours of the last code this
 * session gave; else the set-up (first use) or the code, then the page. The API refuses admin actions without it
 * (403 STEP_UP_REQUIRED): this gate asks before the page does anything.
 */
export function SecondFactorGate({ children, panel }: SecondFactorGateProps) {
  const { t } = useCatalog(authCatalog);
  // Asked again at each gate: a step-up ends after 12 hours, or with the session.
  const status = useSecondFactorStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const [passed, setPassed] = useState(false);
  const [asked, setAsked] = useState(!panel);

  if (passed || status.data?.steppedUpUntil) return <>{children}</>;
  if (status.isLoading) return <Spinner label={t('checkingSession')} />;
  if (status.isError || !status.data)
    return (
      <ErrorPanel
        message={
          httpStatus(status.error) === 403
            ? (serverMessage(status.error) ?? t('secondFactorLoadFailed'))
            : t('secondFactorLoadFailed')
        }
        onRetry={() => void status.refetch()}
        retryLabel={t('secondFactorRetry')}
      />
    );

  // On a page of its own the step is the page's heading; in a panel, under the panel's title.
  const level = panel ? 3 : 1;
  const form = status.data.enrolled ? (
    <Verification onDone={() => setPassed(true)} level={level} />
  ) : (
    <Enrolment onDone={() => setPassed(true)} level={level} />
  );
  if (!panel)
    return (
      <section aria-label={t('secondFactorTitle')}>
        <Stack>
          {form}
          <p>
            <Link to="/secured/dashboard">{t('adminOnlyBack')}</Link>
          </p>
        </Stack>
      </section>
    );
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{panel.title}</CardTitle>
      </CardHeader>
      <CardBody>
        {asked ? (
          form
        ) : (
          <Stack>
            <p>{panel.intro}</p>
            <div>
              <Button variant="secondary" onClick={() => setAsked(true)}>
                {t('secondFactorContinue')}
              </Button>
            </div>
          </Stack>
        )}
      </CardBody>
    </Card>
  );
}
