import { styled, useCatalog } from 'shared-ui';
import { CheckLabel } from '../privacy-consent/PrivacyConsent';
import { whatsappOptInCatalog } from './i18n';

export const WHATSAPP_OPT_IN_ID = 'whatsappOptIn';

const Hint = styled.span`
  display: block;
  color: ${({ theme }) => theme.colors.textMuted};
`;

type Props = {
  /** Which messages: the booking's confirmation and reminder, or the waitlist's offer. */
  purpose: 'booking' | 'waitlist';
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
};

/** "Also send … on WhatsApp" (off unless ticked): sent with the privacy consent, which records it. */
export function WhatsAppOptIn({ purpose, checked, onCheckedChange }: Props) {
  const { t } = useCatalog(whatsappOptInCatalog);
  return (
    <CheckLabel htmlFor={WHATSAPP_OPT_IN_ID}>
      <input id={WHATSAPP_OPT_IN_ID} type="checkbox" checked={checked} onChange={(event) => onCheckedChange(event.target.checked)} aria-describedby={`${WHATSAPP_OPT_IN_ID}-hint`} />
      <span>
        {t(purpose)}
        <Hint id={`${WHATSAPP_OPT_IN_ID}-hint`}>{t('hint')}</Hint>
      </span>
    </CheckLabel>
  );
}
