// rspack loader: a feature's `locales/<language>.json` (ICU MessageFormat texts) → an ES module of message functions
// (messageformat's compileModule), so the browser never carries a message parser. The language is the file's name.
// Plain CommonJS: rspack runs loaders in plain Node.
const path = require('node:path');
const MessageFormat = require('@messageformat/core');
const compileModule = require('@messageformat/core/compile-module.js');

const languages = { en: 'en', ms: 'ms', zh: 'zh' };

module.exports = function compileCatalog(source) {
  const language = languages[path.basename(this.resourcePath, '.json')];
  if (!language) throw new Error(`${this.resourcePath}: a catalogue is named after its language (en, ms or zh)`);
  const messages = JSON.parse(source);
  for (const [id, text] of Object.entries(messages)) {
    if (typeof text !== 'string') throw new Error(`${this.resourcePath}: "${id}" is not a text`);
  }
  try {
    return compileModule(new MessageFormat(language, { currency: 'MYR' }), messages);
  } catch (error) {
    // A broken text fails the build.
    throw new Error(`${this.resourcePath}: ${error.message}`);
  }
};
