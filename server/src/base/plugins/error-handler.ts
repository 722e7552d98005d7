import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ErrorCode, issueRule, SlotListError, ValidationMessage, type ErrorReason } from 'shared-api/contract';
import { ClientGoneError, AppError, DatabaseUnavailableMessage } from '../errors';
import { pingDatabase } from '../db/connection';
import { InputGuardMessage } from './input-guard';
import { retryAfterValue } from './retry-after';
import { SECURITY_HEADERS } from './security-headers';

// Messages written for people (the contract's own words) are shown as they are; zod's generic ones get the field name.
const OWN_MESSAGES = new Set<string>([
  ...Object.values(ValidationMessage),
  'Date must be YYYY-MM-DD',
  'Time must be HH:mm or hh:mm AM/PM',
]);

const fail = (message: string, error: string, reason?: ErrorReason, data: unknown = null) => ({ success: false as const, data, message, error, ...(reason && { reason }) });

type ValidationIssue = { keyword: string; params: Record<string, unknown> };
const isValue = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The reason of a failed zod check: the rule it names (issueRule: a contract rule's id from its custom params, else
 * zod's issue code), the rule's values (its own, or zod's numbers such as `maximum`), and the field.
 */
function validationReason({ keyword, params: issue }: ValidationIssue, field: string): ErrorReason {
  const { params: own, ...zodValues } = issue as { params?: Record<string, unknown> };
  const rule = issueRule({ code: keyword, params: own });
  const values = Object.entries((rule === keyword ? zodValues : own) ?? {}).filter((entry): entry is [string, string | number] => entry[0] !== 'rule' && isValue(entry[1]));
  return { rule, ...(values.length > 0 && { params: Object.fromEntries(values) }), ...(field && { field }) };
}

/** Retry-After of a 503 DATABASE_UNAVAILABLE: a PostgreSQL restart or failover is over in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Turns every failure into the envelope: 400 VALIDATION_ERROR, AppError codes, 429, and 503 when the database is down. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const issue = err.validation[0];
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const where = field || (err.validationContext === 'body' ? 'body' : (err.validationContext ?? 'request'));
      const message = OWN_MESSAGES.has(issue.message ?? "") ? issue.message! : `${where}: ${issue.message ?? "invalid value"}`;
      return reply.code(400).send(fail(message, ErrorCode.VALIDATION_ERROR, validationReason(issue, field)));
    }
    // Nobody reads this answer: the client hung up while its password waited (499, as proxies log it).
    if (err instanceof ClientGoneError) return reply.code(499).send(fail(err.message, ErrorCode.INTERNAL));
    if (err instanceof AppError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', retryAfterValue(err.retryAfterSeconds));
      return reply.code(err.statusCode).send(fail(err.message, err.code, err.reason, err.data));
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send(fail(SlotListError.server, ErrorCode.INTERNAL));
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(fail(err.message, ErrorCode.RATE_LIMITED));
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, empty JSON body, unsupported media type, body too large.
      const message =
        err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported content type: send JSON.'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request body is too large.'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is empty: send a JSON object.'
              : status === 400
                ? 'The request body is not valid JSON.'
                : err.message;
      return reply.code(status).send(fail(message, status === 400 || status === 415 || status === 413 ? ErrorCode.VALIDATION_ERROR : ErrorCode.INTERNAL));
    }
    // Unexpected: if the database does not answer, say so (the timetable shows it) instead of a bare 500.
    const databaseDown = await pingDatabase(app.db, 1500).then(
      () => false,
      () => true,
    );
    // The route's pattern (not its URL) says what failed; the err serializer (logging.ts) keeps values out.
    const route = `${request.method} ${request.routeOptions.url}`;
    if (databaseDown) {
      request.log.warn({ err, route, error: ErrorCode.DATABASE_UNAVAILABLE }, 'database unavailable');
      // A failover or restart takes seconds: the client (and the booking dialog) asks again after this, not at once.
      reply.header('retry-after', retryAfterValue(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(503).send(fail(DatabaseUnavailableMessage, ErrorCode.DATABASE_UNAVAILABLE));
    }
    request.log.error({ err, route, error: ErrorCode.INTERNAL }, 'unexpected error');
    return reply.code(500).send(fail(SlotListError.server, ErrorCode.INTERNAL));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(fail(`No route ${request.method} ${request.url.split('?')[0]}`, ErrorCode.NOT_FOUND));
  });
}

/** Fastify's router refusals (before any hook runs) in the envelope: malformed percent-encoding, an over-long path segment. */
export function frameworkErrors(err: FastifyError, _request: unknown, reply: FastifyReply): void {
  const answer =
    err.code === 'FST_ERR_BAD_URL'
      ? fail(InputGuardMessage.badEncoding, ErrorCode.VALIDATION_ERROR)
      : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? fail(InputGuardMessage.tooLongAddress, ErrorCode.VALIDATION_ERROR)
        : fail(SlotListError.server, ErrorCode.INTERNAL);
  void reply.code(answer.error === ErrorCode.INTERNAL ? 500 : 400).headers(SECURITY_HEADERS).send(answer);
}
