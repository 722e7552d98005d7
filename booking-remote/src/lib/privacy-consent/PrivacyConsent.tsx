import { useEffect, useRef, useState } from 'react';
import { formatDayInMY, HTML_LANG, LOCALES, type Locale } from 'shared-api';
import { NOTICE_FIELDS, privacyNotice } from 'shared-api/privacy';
import { styled, useCatalog } from 'shared-ui';
import { consentCatalog } from './i18n';

export const CONSENT_ID = 'privacyConsent';
const NOTICE_ID = 'privacy-notice';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space[2]};
`;

/** A checkbox with its words beside it, a tap target high (the consent, the WhatsApp opt-in). */
export const CheckLabel = styled.label`
  display: flex;
  align-items: flex-start;
  gap: ${({ theme }) => theme.space[3]};
  min-height: ${({ theme }) => theme.tapTarget};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  line-height: ${({ theme }) => theme.lineHeights.body};
  cursor: pointer;
  input {
    flex: none;
    width: 20px;
    height: 20px;
    margin: 2px 0 0;
    accent-color: ${({ theme }) => theme.colors.brand};
  }
`;

const ErrorText = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  color: ${({ theme }) => theme.colors.danger};
`;

const Links = styled.div`
  display: flex;
  flex-wrap: wrap;
  column-gap: ${({ theme }) => theme.space[4]};
`;

const LinkButton = styled.button`
  min-height: ${({ theme }) => theme.tapTarget};
  padding: 0;
  border: 0;
  background: none;
  color: ${({ theme }) => theme.colors.brand};
  font: inherit;
  font-size: ${({ theme }) => theme.fontSizes.sm};
  text-decoration: underline;
  text-underline-offset: 2px;
  cursor: pointer;
`;

// Scrolls inside the dialog (focusable, so a keyboard scrolls it too) rather than pushing the form's buttons away.
const Notice = styled.section`
  max-height: 40vh;
  overflow-y: auto;
  padding: ${({ theme }) => theme.space[3]} ${({ theme }) => theme.space[4]};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  line-height: ${({ theme }) => theme.lineHeights.body};
  h3 {
    margin: 0;
    font-size: ${({ theme }) => theme.fontSizes.md};
  }
  h4 {
    margin: ${({ theme }) => theme.space[3]} 0 0;
    font-size: ${({ theme }) => theme.fontSizes.sm};
  }
  p {
    margin: ${({ theme }) => theme.space[1]} 0 0;
  }
  ul {
    margin: ${({ theme }) => theme.space[1]} 0 0;
    padding-left: ${({ theme }) => theme.space[5]};
  }
`;

type Props = {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** A submit found the box unticked: it says that the consent is needed. */
  missing?: boolean;
};

/** The consent in a form: ticked or not, and whether a submit found it unticked (until it is ticked). */
export function useConsent(initiallyGiven = false) {
  const [given, setGiven] = useState(initiallyGiven);
  const [missing, setMissing] = useState(false);
  return {
    given,
    /** On submit: whether it is given (if not, the box says it is needed). */
    check: () => {
      setMissing(!given);
      return given;
    },
    props: {
      checked: given,
      missing,
      onCheckedChange: (checked: boolean) => {
        setGiven(checked);
        if (checked) setMissing(false);
      },
    } satisfies Props,
  };
}

/**
 * The parent's consent (PDPA): a required checkbox, and the privacy notice one tap away in the page's language and in
 * each other language, from brand.config.json (`shared-api/privacy`).
 */
export function PrivacyConsent({ checked, onCheckedChange, missing = false }: Props) {
  const { t, locale } = useCatalog(consentCatalog);
  const [shown, setShown] = useState<Locale | null>(null);
  const errorId = missing ? `${CONSENT_ID}-error` : undefined;
  const text = shown ? privacyNotice.texts[shown] : null;
  // The notice opens below the fold of the dialog's scrolling body (on a phone): bring it into view.
  const noticeRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (shown) noticeRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [shown]);
  return (
    <Box>
      {/* The notice first, then the consent: the box sits last, right before the form's buttons (no links between). */}
      <Links>
        <LinkButton type="button" aria-expanded={shown === locale} aria-controls={NOTICE_ID} onClick={() => setShown(shown === locale ? null : locale)}>
          {shown === locale ? t('hideNotice') : t('readNotice')}
        </LinkButton>
        {LOCALES.filter((other) => other !== locale).map((other) => (
          <LinkButton key={other} type="button" aria-expanded={shown === other} aria-controls={NOTICE_ID} onClick={() => setShown(shown === other ? null : other)}>
            {/* Each language names the others in its own words (Chinese: 阅读英文版, not 以English阅读). */}
            {t('noticeIn', { code: other })}
          </LinkButton>
        ))}
      </Links>
      {shown && text && (
        <Notice ref={noticeRef} id={NOTICE_ID} lang={HTML_LANG[shown]} aria-label={text.title} tabIndex={0}>
          <h3>{text.title}</h3>
          <p lang={HTML_LANG[locale]}>{t('noticeUpdated', { version: privacyNotice.version, date: formatDayInMY(privacyNotice.updatedAt, 'longDate', locale) })}</p>
          {text.sections.map((section) => (
            <div key={section.heading}>
              <h4>{section.heading}</h4>
              <p>{section.body}</p>
            </div>
          ))}
          <h4>{text.fieldsHeading}</h4>
          <ul>
            {NOTICE_FIELDS.map((field) => (
              <li key={field}>{text.fields[field]}</li>
            ))}
          </ul>
        </Notice>
      )}
      <CheckLabel>
        <input
          type="checkbox"
          id={CONSENT_ID}
          name={CONSENT_ID}
          checked={checked}
          onChange={(event) => onCheckedChange(event.target.checked)}
          aria-invalid={missing ? true : undefined}
          aria-describedby={errorId}
        />
        <span>{t('consentLabel')}</span>
      </CheckLabel>
      {missing && (
        <ErrorText id={errorId} role="alert">
          {t('consentRequired')}
        </ErrorText>
      )}
    </Box>
  );
}
