import { Button, useCatalog } from 'shared-ui';
import { Menu, MenuContent, MenuItem, MenuTrigger } from 'shared-ui/data';
import { dashboardCatalog } from '../i18n';

/** The Actions menu: only 'Create New Slot' does something today. */
export function ActionsMenu({ onCreateSlot }: { onCreateSlot: () => void }) {
  const { t } = useCatalog(dashboardCatalog);
  return (
    <Menu>
      <MenuTrigger asChild>
        <Button variant="secondary" size="sm">
          {t('actions')}
        </Button>
      </MenuTrigger>
      <MenuContent>
        <MenuItem onSelect={onCreateSlot}>{t('createNewSlot')}</MenuItem>
        <MenuItem disabled>{t('bulkActions')}</MenuItem>
        <MenuItem disabled>{t('moreOptions')}</MenuItem>
      </MenuContent>
    </Menu>
  );
}
