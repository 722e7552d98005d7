import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { brand, PAYMENT_METHODS, inMY } from 'shared-api/contract';
import { SandboxGateway, type SandboxAction } from './sandbox';
import { escapeHtml as h, formatRM } from '../../mail';
import type { SandboxSessionRow } from './tables';
import { errorResponses, publicRoute } from '../../base/routes';

const METHOD_LABELS: Record<string, string> = { fpx: 'FPX online banking', card: 'Credit / debit card', ewallet: 'E-wallet', duitnow_qr: 'DuitNow QR' };
const params = z.object({ id: z.string().min(1).max(100) });
const formBody = z.object({ action: z.enum(['pay', 'fail', 'cancel']), method: z.enum(PAYMENT_METHODS).optional() });
/** An HTML answer on /docs. */
const htmlPage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const tags = ['sandbox gateway'];

const shell = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${h(title)}</title>
<style>
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;background:#eef1f4;color:#1b2430}
.bar{background:#1f2a44;color:#fff;padding:12px 16px;font-weight:600;display:flex;justify-content:space-between;align-items:center}
.bar small{font-weight:400;opacity:.8}.card{max-width:460px;margin:24px auto;background:#fff;border-radius:10px;padding:24px;box-shadow:0 2px 10px rgba(0,0,0,.08)}
h1{font-size:1.1rem;margin:0 0 4px}.amount{font-size:2rem;font-weight:700;margin:12px 0}.muted{color:#5a6472;font-size:.9rem}
fieldset{border:1px solid #d4d9e0;border-radius:8px;margin:16px 0;padding:8px 12px}legend{font-weight:600;padding:0 4px}
label.m{display:flex;gap:10px;align-items:center;min-height:44px;cursor:pointer}
button{width:100%;min-height:48px;border-radius:8px;border:0;font-size:1rem;font-weight:600;margin-top:10px;cursor:pointer}
.pay{background:#1a7f37;color:#fff}.fail{background:#fff;color:#b42318;border:2px solid #b42318}.cancel{background:#fff;color:#1b2430;border:2px solid #9aa4b2}
.note{background:#fff8e1;border:1px solid #f0d27a;border-radius:8px;padding:8px 12px;font-size:.85rem;margin-top:16px}
a.back{display:inline-block;margin-top:12px;color:#1f4fb4}
</style></head><body><div class="bar"><span>Sandbox Pay</span><small>Test gateway · no real money moves</small></div>
<main class="card">${body}</main></body></html>`;

function checkoutPage(s: SandboxSessionRow, state: string): string {
  const amount = formatRM(s.amountSen);
  const expires = inMY(s.expiresAt).format('h:mm A');
  const header = `<p class="muted">Pay to</p><h1>${h(brand.productName)}</h1><p class="muted">${h(s.description)}</p>
<div class="amount">${h(amount)}</div><p class="muted">Reference ${h(s.reference)}</p>`;
  if (state !== 'pending') {
    const text =
      state === 'paid' ? 'This payment has been completed.' : state === 'expired' ? 'This payment session has expired.' : `This payment is ${state}.`;
    const back = state === 'paid' ? s.successUrl : s.failureUrl;
    return shell(`${brand.productName}: payment`, `${header}<p role="status"><strong>${h(text)}</strong></p><a class="back" href="${h(back)}">Return to ${h(brand.productName)}</a>`);
  }
  const methods = s.allowedMethods.split(',').filter((m) => m in METHOD_LABELS);
  return shell(
    `Pay ${amount} to ${brand.productName}`,
    `${header}<p class="muted">Session ends at ${h(expires)} (GMT+8)</p>
<form method="post" action="/sandbox-gateway/checkout/${encodeURIComponent(s.id)}">
<fieldset><legend>Payment method</legend>
${methods.map((m, i) => `<label class="m"><input type="radio" name="method" value="${h(m)}"${i === 0 ? ' checked' : ''}> ${h(METHOD_LABELS[m])}</label>`).join('\n')}
</fieldset>
<button class="pay" name="action" value="pay" type="submit">Pay ${h(amount)}</button>
<button class="fail" name="action" value="fail" type="submit">Fail payment</button>
<button class="cancel" name="action" value="cancel" type="submit">Cancel</button>
</form>
<p class="note">Sandbox: Pay marks the payment paid and sends the signed callback to the booking server; Fail and Cancel end it unpaid.</p>`,
  );
}

/** The sandbox gateway's hosted checkout page (only when PAYMENT_GATEWAY=sandbox). */
export const sandboxGatewayRoutes: FastifyPluginAsyncZod = async (app) => {
  const gateway = app.payments.gateway;
  if (!(gateway instanceof SandboxGateway)) return;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get(
    '/sandbox-gateway/checkout/:id',
    {
      schema: {
        tags,
        operationId: 'showSandboxCheckout',
        security: publicRoute,
        summary: 'Hosted checkout page of the sandbox gateway (HTML)',
        params,
        response: { 200: htmlPage('The checkout page'), 404: htmlPage('No such checkout session'), ...errorResponses() },
      },
    },
    async (request, reply) => {
      const session = await gateway.find(request.params.id);
      reply.header('cache-control', 'no-store').header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:");
      if (!session) return reply.code(404).type('text/html; charset=utf-8').send(shell('Payment not found', '<h1>Payment not found</h1><p>This checkout link is not valid.</p>'));
      const { state } = await gateway.fetchStatus(session.id);
      return reply.type('text/html; charset=utf-8').send(checkoutPage(session, state));
    },
  );

  app.post(
    '/sandbox-gateway/checkout/:id',
    {
      schema: {
        tags,
        operationId: 'submitSandboxCheckout',
        security: publicRoute,
        summary: 'A button on the sandbox checkout page: pay, fail or cancel; redirects to the booking site',
        params,
        body: formBody,
        response: {
          303: { description: "To the booking site's payment result page (in Location; no body)", content: { 'text/plain': { schema: z.string().max(0) } } },
          404: htmlPage('No such checkout session'),
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const outcome = await gateway.act(request.params.id, request.body.action as SandboxAction, request.body.method ?? null);
      if (!outcome) return reply.code(404).type('text/html; charset=utf-8').send(shell('Payment not found', '<h1>Payment not found</h1>'));
      return reply.redirect(outcome.redirect, 303);
    },
  );
};
