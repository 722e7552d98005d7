export {
  defineCatalog,
  activateLocale,
  chooseLocale,
  currentLocale,
  startI18n,
  initialLocale,
  translator,
  loadWithLanguage,
  setMessageCompiler,
  type Catalog,
  type MessageFunction,
  type MessageValues,
  type Translate,
} from './catalog';
export { useCatalog, useLocale } from './useCatalog';
export type { Locale } from './languages';
