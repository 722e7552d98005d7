import '@testing-library/jest-dom';

// The build compiles message catalogues (scripts/i18n/catalog-loader.cjs); Jest imports their JSON raw, so the tests
// compile each text with the same library when a catalogue is defined.
import MessageFormat from '@messageformat/core';
import { setMessageCompiler } from 'shared-ui';

const compilers = new Map<string, MessageFormat>();
setMessageCompiler((locale, text) => {
  let compiler = compilers.get(locale);
  if (!compiler) compilers.set(locale, (compiler = new MessageFormat(locale, { currency: 'MYR' })));
  return compiler.compile(text) as (values?: Record<string, unknown>) => string;
});
