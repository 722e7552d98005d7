// rspack loader: a feature's `locales/<language>.json` (ICU MessageFormat texts) → Lingui's compiled messages, so
// the browser never carries a message parser. Plain CommonJS: rspack runs loaders in plain Node.
const { compileMessageOrThrow } = require('@lingui/message-utils/compileMessage');

module.exports = function compileCatalog(source) {
  const messages = JSON.parse(source);
  const compiled = {};
  for (const [id, text] of Object.entries(messages)) {
    if (typeof text !== 'string') throw new Error(`${this.resourcePath}: "${id}" is not a text`);
    try {
      compiled[id] = compileMessageOrThrow(text);
    } catch (error) {
      // A broken text fails the build (compileMessage would log it and ship the raw text).
      throw new Error(`${this.resourcePath}: "${id}": ${error.message}`);
    }
  }
  return `export default ${JSON.stringify(compiled)};`;
};
