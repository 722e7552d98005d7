import fp from 'fastify-plugin';
import { COMMON_SECURITY_HEADERS } from 'shared-api/contract';

/** JSON answers load nothing and may not be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
/** The OpenAPI page (/docs): Swagger UI's own scripts, styles and data: icons, and the spec it fetches from here. */
export const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";
/**
 * Kept by no cache (browser, proxy, CDN): answers carry tokens and visitors' details. A route whose answer is public
 * and may be cached says so with its own Cache-Control.
 */
export const NO_STORE = 'no-store';

/** What every JSON answer carries (framework refusals, sent before any hook runs, set these themselves). */
export const SECURITY_HEADERS = {
  ...COMMON_SECURITY_HEADERS,
  'cache-control': NO_STORE,
  'content-security-policy': API_CSP,
} as const;

/**
 * nosniff, no referrer, no browser features, no-store and a Content-Security-Policy on every answer, errors and 404s
 * included. A route that serves HTML sets its own policy (the sandbox checkout page); it is kept, and gets
 * frame-ancestors 'none' when it lacks one. A Cache-Control the route set is kept.
 */
export const securityHeadersPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.headers(COMMON_SECURITY_HEADERS);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE);
      const policy = reply.getHeader('content-security-policy');
      if (policy === undefined) reply.header('content-security-policy', API_CSP);
      else if (!/frame-ancestors/i.test(String(policy))) reply.header('content-security-policy', `${String(policy)}; frame-ancestors 'none'`);
      return payload;
    });
  },
  { name: 'security-headers' },
);
