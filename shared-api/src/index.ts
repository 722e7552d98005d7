export { api, baseQuery, REQUEST_TIMEOUT_MS } from './api';
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
export * from './contract';
