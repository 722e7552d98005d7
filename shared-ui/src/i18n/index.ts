export {
  defineCatalog,
  activateLocale,
  chooseLocale,
  currentLocale,
  startI18n,
  translator,
  setMessageCompiler,
  type Catalog,
  type MessageFunction,
  type MessageValues,
  type Translate,
} from './catalog';
export { useCatalog, useLocale } from './useCatalog';
