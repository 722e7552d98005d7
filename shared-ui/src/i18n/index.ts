export { defineCatalog, activateLocale, chooseLocale, currentLocale, startI18n, i18n, type Catalog } from './catalog';
export { useCatalog, useLocale, type Translate, type MessageValues } from './useCatalog';
