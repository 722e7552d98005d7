import type { PropsWithChildren, ReactElement, ComponentType } from 'react';
import { Provider } from 'react-redux';
import { render, type RenderOptions } from '@testing-library/react';
import { makeStore, type AppStore, type RootState } from '../store';

type ExtendedRenderOptions = Omit<RenderOptions, 'queries' | 'wrapper'> & {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
  /** Extra providers (theme, router) a remote wraps around the store. */
  wrapper?: ComponentType<PropsWithChildren>;
};

/** Renders with a fresh store (as the RTK template's helper), returning the store for assertions. */
export function renderWithProviders(ui: ReactElement, options: ExtendedRenderOptions = {}) {
  const { preloadedState, store = makeStore(preloadedState), wrapper: Extra, ...renderOptions } = options;
  const Wrapper = ({ children }: PropsWithChildren) => (
    <Provider store={store}>{Extra ? <Extra>{children}</Extra> : children}</Provider>
  );
  return { store, ...render(ui, { wrapper: Wrapper, ...renderOptions }) };
}
