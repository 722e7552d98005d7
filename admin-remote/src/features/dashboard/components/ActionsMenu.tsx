import { Button } from 'shared-ui';
import { Menu, MenuContent, MenuItem, MenuTrigger } from 'shared-ui/data';

/** The Actions menu: only 'Create New Slot' does something today. */
export function ActionsMenu({ onCreateSlot }: { onCreateSlot: () => void }) {
  return (
    <Menu>
      <MenuTrigger asChild>
        <Button variant="secondary" size="sm">
          Actions
        </Button>
      </MenuTrigger>
      <MenuContent>
        <MenuItem onSelect={onCreateSlot}>Create New Slot</MenuItem>
        <MenuItem disabled>Bulk Actions</MenuItem>
        <MenuItem disabled>More Options</MenuItem>
      </MenuContent>
    </Menu>
  );
}
