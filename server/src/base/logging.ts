import type { FastifyServerOptions } from 'fastify';

// Logs must never carry secrets or visitor data. Three layers: headers and known fields are redacted by path, errors
// keep only fields that name what failed, and a query's parameters (drizzle's "params: ..." line) are cut out.

/** Fields that hold credentials or visitor details, wherever they are logged (top level or one level down). */
const SECRET_FIELDS = [
  'password',
  'passwordHash',
  'token',
  'holdToken',
  'sessionToken',
  'visitorName',
  'visitorEmail',
  'visitorContactNo',
  'params',
  'parameters',
];
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-payment-key"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-payment-key"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
];

/**
 * Error fields that say what failed without the values involved: the SQL state, table, column and constraint of a
 * database error stay; `detail` ("Failing row contains (...)"), `where` ("parameter $1 = '...'"), `params`,
 * `parameters`, `query` and anything unknown are dropped.
 */
const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'schema', 'table', 'column', 'constraint', 'dataType', 'routine'];

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;
/** PostgreSQL echoes a refused input value in quotes: `invalid input syntax for type integer: "x"`, `value "9" is out of range`. */
const ECHOED_VALUE = /(: |value )"[^"]*"/g;

/** A message without a failed query's parameters, echoed input values or email addresses. */
export function withoutValues(text: string): string {
  const paramsAt = text.indexOf('\nparams: ');
  const kept = paramsAt < 0 ? text : text.slice(0, paramsAt);
  return kept.replace(ECHOED_VALUE, '$1"[value]"').replace(EMAIL, '[email]');
}

type ErrorLike = { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown; [field: string]: unknown };
export type SerializedError = { type: string; message: string; stack: string; [field: string]: unknown };

/** The stack's frames under the cleaned message (a stack begins with the original message, parameters and all). */
function cleanStack(stack: unknown, original: string, heading: string): string {
  if (typeof stack !== 'string') return heading;
  const messageAt = original ? stack.indexOf(original) : -1;
  const frames =
    messageAt >= 0 ? stack.slice(messageAt + original.length) : `\n${stack.split('\n').filter((line) => /^\s+at /.test(line)).join('\n')}`;
  return `${heading}${frames}`;
}

/**
 * pino's `err` serializer: type, cleaned message and stack, the safe fields, and the cause chain the same way.
 * Anything logged under `err` comes here, also a bare message (the payments service logs `err.message`).
 */
export function serializeError(err: unknown, depth = 0): SerializedError | string | unknown {
  if (typeof err === 'string') return withoutValues(err);
  if (err === null || typeof err !== 'object') return err;
  const e = err as ErrorLike;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  // pg and PGlite name their errors "error" (PGlite's class name is minified): the SQL state says the rest.
  const type = typeof e.severity === 'string' ? 'DatabaseError' : name !== 'Error' ? name : (e.constructor?.name ?? name);
  const original = typeof e.message === 'string' ? e.message : '';
  const message = withoutValues(original);
  const out: SerializedError = { type, message, stack: cleanStack(e.stack, original, `${type}: ${message}`) };
  for (const field of SAFE_ERROR_FIELDS) {
    const value = e[field];
    if (typeof value === 'string' || typeof value === 'number') out[field] = value;
  }
  if (e.cause !== undefined && depth < 5) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/** The API's pino options (buildApp uses them when no logger is passed); tests add a `stream` to capture lines. */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // Typed for Error input by Fastify; pino passes whatever was logged under `err`, which serializeError handles.
    serializers: { err: serializeError as (err: Error) => SerializedError },
  };
}
