export { api, baseQuery, REQUEST_TIMEOUT_MS } from './api';
export { httpStatus, serverMessage, serverRule, slotListErrorKey, slotListErrorMessage } from './apiErrors';
export { apiConfig, configureApi, type ApiConfig } from './config';
export { getToken, setToken, removeToken } from './token';
export {
  makeStore,
  rootReducer,
  useAppDispatch,
  useAppSelector,
  useAppStore,
  type AppStore,
  type AppDispatch,
  type RootState,
  type LazyLoadedSlices,
} from './store';
// The contract without its zod schemas: shared-api is shared whole (never tree-shaken) and on the public page's first
// load, which parses nothing with zod. The schemas are `shared-api/schemas` (or `shared-api/contract` on the server),
// bundled only into the lazy chunks that use them; their types are re-exported here.
export * from './contract/constants';
export * from './contract/codes';
export * from './contract/messages';
export * from './contract/email';
export * from './contract/brand';
export * from './contract/gmt8';
export * from './contract/money';
export * from './contract/what-to-bring';
export * from './contract/locale';
export { loadDateLocale } from './locale';
export type * from './contract/schemas';
export type * from './contract/sibling-price';
export type * from './contract/hold-limits';
export type * from './contract/manage';
export type * from './contract/calendar-feed';
export type * from './contract/waitlist';
