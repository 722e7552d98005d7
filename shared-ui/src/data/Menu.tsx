// In shared-ui/forms or shared-ui/data: the design system's core comes from the shared 'shared-ui' (one copy per page).
import {
  cloneElement,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useState,
  type ComponentProps,
  type MouseEvent,
  type ReactElement,
} from 'react';
import type * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { lazyModule } from 'shared-ui';

// Radix's menu (with its positioning engine) is the heaviest primitive: it loads when a Menu first mounts,
// so pages without a menu (the public timetable) never download it.
const menuCode = lazyModule(() => import(/* webpackChunkName: "shared-ui-menu" */ './MenuImpl'));
type MenuCode = Awaited<ReturnType<typeof menuCode.preload>>;

const MenuCodeContext = createContext<MenuCode | null>(null);
const MenuOpenContext = createContext<(open: boolean) => void>(() => {});

export type MenuProps = RadixMenu.DropdownMenuProps;
export type MenuTriggerProps = ComponentProps<typeof RadixMenu.Trigger>;
export type MenuContentProps = ComponentProps<typeof RadixMenu.Content>;
export type MenuItemProps = ComponentProps<typeof RadixMenu.Item>;

/** A dropdown menu on Radix (arrow keys, typeahead, Escape, focus return). */
export function Menu({ open: openProp, defaultOpen = false, onOpenChange, children, ...rest }: MenuProps) {
  const { module } = menuCode.useModule(true);
  const [uncontrolledOpen, setUncontrolledOpen] = useState(defaultOpen);
  const open = openProp ?? uncontrolledOpen;
  const setOpen = useCallback(
    (next: boolean) => {
      if (openProp === undefined) setUncontrolledOpen(next);
      onOpenChange?.(next);
    },
    [openProp, onOpenChange],
  );
  return (
    <MenuCodeContext.Provider value={module ?? null}>
      <MenuOpenContext.Provider value={setOpen}>
        {module ? (
          <module.Root open={open} onOpenChange={setOpen} {...rest}>
            {children}
          </module.Root>
        ) : (
          children
        )}
      </MenuOpenContext.Provider>
    </MenuCodeContext.Provider>
  );
}

type Clickable = { onClick?: (event: MouseEvent<HTMLElement>) => void };

/** Use asChild to make a Button the trigger. Before the menu code arrives a press is remembered and opens it. */
export function MenuTrigger(props: MenuTriggerProps) {
  const code = useContext(MenuCodeContext);
  const setOpen = useContext(MenuOpenContext);
  if (code) return <code.Trigger {...props} />;

  const { asChild, children, onClick, ...rest } = props;
  const pending = {
    'aria-haspopup': 'menu' as const,
    'aria-expanded': false,
  };
  if (asChild && isValidElement<Clickable>(children)) {
    return cloneElement(children as ReactElement<Clickable & Record<string, unknown>>, {
      ...rest,
      ...pending,
      onClick: (event: MouseEvent<HTMLElement>) => {
        children.props.onClick?.(event);
        onClick?.(event as MouseEvent<HTMLButtonElement>);
        if (!event.defaultPrevented) setOpen(true);
      },
    });
  }
  return (
    <button
      type="button"
      {...rest}
      {...pending}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) setOpen(true);
      }}
    >
      {children}
    </button>
  );
}

/** The menu's popup, portalled and kept on screen. */
export function MenuContent(props: MenuContentProps) {
  const code = useContext(MenuCodeContext);
  return code ? <code.MenuContentImpl {...props} /> : null;
}

/** An action; `disabled` items are announced as such and skipped by the keyboard. */
export function MenuItem(props: MenuItemProps) {
  const code = useContext(MenuCodeContext);
  return code ? <code.MenuItemImpl {...props} /> : null;
}

export function MenuSeparator(props: ComponentProps<typeof RadixMenu.Separator>) {
  const code = useContext(MenuCodeContext);
  return code ? <code.MenuSeparatorImpl {...props} /> : null;
}

/** Fetches the menu code ahead of time. Never rejects. */
export const preloadMenu = (): Promise<void> =>
  menuCode.preload().then(
    () => undefined,
    () => undefined,
  );
