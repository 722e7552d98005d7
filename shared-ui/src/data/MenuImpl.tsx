// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import type { ComponentProps } from 'react';
import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { styled } from 'shared-ui';

// The Radix implementation behind ../Menu.tsx, loaded when a menu first mounts.
export const Root = RadixMenu.Root;
export const Trigger = RadixMenu.Trigger;

const Content = styled(RadixMenu.Content)`
  z-index: ${({ theme }) => theme.zIndices.menu};
  min-width: 200px;
  max-width: calc(100vw - 16px);
  padding: ${({ theme }) => theme.space[1]};
  background: ${({ theme }) => theme.colors.surface};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.md};
`;

/** The menu's popup, portalled and kept on screen. */
export function MenuContentImpl({
  sideOffset = 4,
  align = 'end',
  collisionPadding = 8,
  ...rest
}: ComponentProps<typeof RadixMenu.Content>) {
  return (
    <RadixMenu.Portal>
      <Content sideOffset={sideOffset} align={align} collisionPadding={collisionPadding} {...rest} />
    </RadixMenu.Portal>
  );
}

/** An action; `disabled` items are announced as such and skipped by the keyboard. */
export const MenuItemImpl = styled(RadixMenu.Item)`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space[2]};
  min-height: ${({ theme }) => theme.tapTarget};
  padding: 0 ${({ theme }) => theme.space[3]};
  border-radius: ${({ theme }) => theme.radii.sm};
  color: ${({ theme }) => theme.colors.text};
  cursor: pointer;
  outline: none;
  user-select: none;
  &[data-highlighted] {
    background: ${({ theme }) => theme.colors.brandSubtle};
    color: ${({ theme }) => theme.colors.brand};
  }
  &[data-disabled] {
    color: ${({ theme }) => theme.colors.textMuted};
    cursor: not-allowed;
  }
`;

export const MenuSeparatorImpl = styled(RadixMenu.Separator)`
  height: 1px;
  margin: ${({ theme }) => theme.space[1]} 0;
  background: ${({ theme }) => theme.colors.border};
`;
