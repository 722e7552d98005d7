import fp from 'fastify-plugin';
import { ErrorCode } from 'shared-api/contract';
import { AppError } from '../errors';

// PostgreSQL refuses U+0000 in text ("invalid byte sequence"), and an unpaired surrogate cannot be stored as UTF-8:
// both are refused here, once for every route, before any schema or query sees them.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const hasForbiddenCharacter = (text: string) => text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);

export const InputGuardMessage = {
  badEncoding: 'The address is not valid: it has a malformed percent-encoding.',
  tooLongAddress: 'The address is not valid: a part of it is too long.',
  badAddressCharacter: 'The address contains a character that is not allowed (a NUL character or an unpaired surrogate).',
  badBodyCharacter: (where: string) => `${where}: contains a character that is not allowed (a NUL character or an unpaired surrogate).`,
} as const;

const refuse = (message: string) => new AppError(400, ErrorCode.VALIDATION_ERROR, message);

/** Why a request URL is refused, or null: malformed percent-encoding, or NUL / an unpaired surrogate once decoded. */
export function addressProblem(url: string): string | null {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt + 1).replace(/\+/g, ' ');
  let decoded: string;
  try {
    decoded = decodeURIComponent(path) + decodeURIComponent(query);
  } catch {
    return InputGuardMessage.badEncoding;
  }
  return hasForbiddenCharacter(decoded) ? InputGuardMessage.badAddressCharacter : null;
}

// Field names are echoed in the message only when they look like field names.
const fieldPath = (parent: string, key: string) => {
  const name = /^[A-Za-z0-9_-]{1,64}$/.test(key) ? key : '?';
  return parent === 'body' ? name : `${parent}.${name}`;
};

/** Where in a parsed body (field names included) a forbidden character is, e.g. `visitorName`, or null. */
export function bodyProblemAt(body: unknown): string | null {
  // Iterative: a 64 KB body can nest thousands of levels deep.
  const pending: [unknown, string][] = [[body, 'body']];
  while (pending.length) {
    const [value, where] = pending.pop()!;
    if (typeof value === 'string') {
      if (hasForbiddenCharacter(value)) return where;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => pending.push([item, fieldPath(where, String(i))]));
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (hasForbiddenCharacter(key)) return `${where} (a field name)`;
        pending.push([item, fieldPath(where, key)]);
      }
    }
  }
  return null;
}

/**
 * Refuses with 400 VALIDATION_ERROR, on every route (also ones added later): a URL whose path or query is malformed
 * or holds NUL / an unpaired surrogate (before any other hook, staff auth included), and a parsed body holding one
 * (before validation; raw Buffer bodies, such as the signed gateway callback's, are left to their route).
 */
export const inputGuardPlugin = fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      const problem = addressProblem(request.raw.url ?? request.url);
      if (problem) throw refuse(problem);
    });
    app.addHook('preValidation', async (request) => {
      const where = bodyProblemAt(request.body);
      if (where) throw refuse(InputGuardMessage.badBodyCharacter(where));
    });
  },
  { name: 'input-guard' },
);
