// The bundles get their catalogues compiled by the build (scripts/i18n/catalog-loader.cjs); this server imports the
// shell's frame through tsx, which reads the JSON raw: compile each text with the same library, before any catalogue
// is defined (import this module first).
import MessageFormat from '@messageformat/core';
import { setMessageCompiler } from 'shared-ui';

const compilers = new Map<string, MessageFormat>();
setMessageCompiler((locale, text) => {
  let compiler = compilers.get(locale);
  if (!compiler) compilers.set(locale, (compiler = new MessageFormat(locale, { currency: 'MYR' })));
  return compiler.compile(text) as (values?: Record<string, unknown>) => string;
});
