import type { ManageView } from 'shared-api';
import { Button, useCatalog, useToast } from 'shared-ui';
import { useStopWhatsAppMutation, type ManageResult } from '../api/manageApi';
import { manageCatalog } from '../i18n';
import { Actions } from './layout';

type Props = { token: string; view: ManageView; onStopped: (result: ManageResult) => void };

/** The booking's WhatsApp messages (issue 38): on, with a way to stop them here (as replying STOP does), or off. */
export function WhatsAppChoice({ token, view, onStopped }: Props) {
  const { t } = useCatalog(manageCatalog);
  const toast = useToast();
  const [stop, { isLoading }] = useStopWhatsAppMutation();
  if (!view.whatsapp) return null;
  const stopNow = async () => {
    const result = await stop({ token })
      .unwrap()
      .catch(() => null);
    if (!result) return void toast.error(t('whatsapp.failed'));
    onStopped(result);
    toast.success(t('whatsapp.stopped'));
  };
  return (
    <section aria-labelledby="manage-whatsapp-title">
      <h2 id="manage-whatsapp-title">{t('whatsapp.title')}</h2>
      <p>{view.whatsapp === 'on' ? t('whatsapp.on') : t('whatsapp.off')}</p>
      {view.whatsapp === 'on' && (
        <Actions>
          <Button variant="secondary" onClick={stopNow} disabled={isLoading}>
            {t('whatsapp.stop')}
          </Button>
        </Actions>
      )}
    </section>
  );
}
