import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../test/pointer-capture';
import { renderThemed } from '../test/render';
import { Button } from '../components/Button';
import { Menu, MenuContent, MenuItem, MenuTrigger } from './Menu';

describe('Menu', () => {
  // Runs first, while the Radix menu code is still loading.
  it('a press before the menu code has arrived opens the menu once it has', async () => {
    renderThemed(
      <Menu>
        <MenuTrigger asChild>
          <Button>Actions</Button>
        </MenuTrigger>
        <MenuContent>
          <MenuItem>Create New Slot</MenuItem>
        </MenuContent>
      </Menu>,
    );
    const trigger = screen.getByRole('button', { name: 'Actions' });
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    fireEvent.click(trigger);
    expect(await screen.findByRole('menuitem', { name: 'Create New Slot' })).toBeInTheDocument();
  });

  it('opens from its trigger, runs an item, and marks disabled items', async () => {
    const onCreate = jest.fn();
    const onBulk = jest.fn();
    renderThemed(
      <Menu>
        <MenuTrigger asChild>
          <Button variant="secondary">Actions</Button>
        </MenuTrigger>
        <MenuContent>
          <MenuItem onSelect={onCreate}>Create New Slot</MenuItem>
          <MenuItem disabled onSelect={onBulk}>
            Bulk Actions
          </MenuItem>
        </MenuContent>
      </Menu>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Actions' }));
    const menu = await screen.findByRole('menu');
    expect(menu).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Bulk Actions' })).toHaveAttribute('aria-disabled', 'true');

    await userEvent.click(screen.getByRole('menuitem', { name: 'Create New Slot' }));
    expect(onCreate).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(onBulk).not.toHaveBeenCalled();
  });

  it('opens with the keyboard and closes on Escape', async () => {
    renderThemed(
      <Menu>
        <MenuTrigger asChild>
          <Button>Actions</Button>
        </MenuTrigger>
        <MenuContent>
          <MenuItem>Create New Slot</MenuItem>
        </MenuContent>
      </Menu>,
    );
    screen.getByRole('button', { name: 'Actions' }).focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('menu');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  });
});
