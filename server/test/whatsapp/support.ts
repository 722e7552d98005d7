import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in Cloud API answers a send: 200 with an id, or a status and the platform's error. */
export type StandInAnswer = { status: 200 } | { status: number; code: number; title: string };

/**
 * A tiny stand-in for the Cloud API's `POST /{version}/{phone-number-id}/messages` (until part 1's fake is used):
 * records each request it received and answers as `answer` says (200 with `wamid.N` by default).
 */
export async function startStandIn(
  answer: (n: number, body: Record<string, unknown>) => StandInAnswer = () => ({ status: 200 }),
) {
  const received: {
    path: string;
    auth: string | undefined;
    body: Record<string, unknown>;
    wamid?: string;
  }[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      const body = JSON.parse(data) as Record<string, unknown>;
      const n = received.length + 1;
      const a = answer(n, body);
      const entry: (typeof received)[number] = { path: req.url ?? '', auth: req.headers.authorization, body };
      received.push(entry);
      res.setHeader('content-type', 'application/json');
      if (a.status === 200) {
        entry.wamid = `wamid.${n}`;
        res.end(
          JSON.stringify({
            messaging_product: 'whatsapp',
            contacts: [{ input: body.to, wa_id: body.to }],
            messages: [{ id: entry.wamid }],
          }),
        );
      } else {
        const e = a as { status: number; code: number; title: string };
        res.statusCode = e.status;
        res.end(
          JSON.stringify({
            error: { message: e.title, type: 'OAuthException', code: e.code, fbtrace_id: 'x' },
          }),
        );
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The platform's webhook envelope around one change's `value` (its statuses or messages). */
const webhookBody = (value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '100000000000000',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '60312345678', phone_number_id: '100000000000001' },
            ...value,
          },
        },
      ],
    },
  ],
});

/** A webhook post as the platform sends it: statuses of messages. */
export const statusesBody = (
  statuses: { id: string; status: string; timestamp: number; errors?: unknown[] }[],
) =>
  webhookBody({
    statuses: statuses.map((s) => ({ ...s, timestamp: String(s.timestamp), recipient_id: '60123456789' })),
  });

/** A webhook post carrying a parent's quick-reply button press answering `context`. */
export const buttonReplyBody = (id: string, context: string, payload: string, text: string) =>
  webhookBody({
    contacts: [{ profile: { name: 'Parent' }, wa_id: '60123456789' }],
    messages: [
      {
        context: { from: '60312345678', id: context },
        from: '60123456789',
        id,
        timestamp: '1764300000',
        type: 'button',
        button: { payload, text },
      },
    ],
  });
