import { intFrom } from '../base/env';

/** WhatsApp Cloud API settings (issue 38). `fake` (the default) talks to the local fake; `off` sends nothing. */
export type WhatsAppConfig = {
  /** WHATSAPP_API: 'fake' (default), 'off', or the Graph API's base URL (https://graph.facebook.com in production). */
  api: 'fake' | 'off' | string;
  /** WHATSAPP_GRAPH_VERSION, e.g. v21.0. */
  graphVersion: string;
  /** WHATSAPP_PHONE_NUMBER_ID: the business number's id (not the number itself). */
  phoneNumberId: string;
  /** WHATSAPP_ACCESS_TOKEN: a system user's permanent token with whatsapp_business_messaging. */
  accessToken: string;
  /** WHATSAPP_APP_SECRET: signs the webhook's posts. Unset: one random key shared by every replica (app_secrets). */
  appSecret: string | undefined;
  /** WHATSAPP_VERIFY_TOKEN: what the platform's GET handshake must bring. */
  verifyToken: string;
  /** WHATSAPP_RETRY_SECONDS: the first wait after a 429/5xx (pg-boss doubles it each time). */
  retrySeconds: number;
  /** WHATSAPP_GIVE_UP_HOURS: a message still unsent this long after it was due is marked failed. */
  giveUpHours: number;
  /** WHATSAPP_QUIET_HOURS: off sends at any hour (tests and the e2e stack); on (default) only 07:00–22:00 GMT+8. */
  quietHours: boolean;
};

/** The fixed values of fake mode (never production: the real API needs its own). */
export const FAKE_WHATSAPP = { phoneNumberId: '100000000000001', accessToken: 'fake-whatsapp-token', verifyToken: 'fake-verify-token' } as const;
/** Where fake mode serves the fake Cloud API and its page. */
export const FAKE_WHATSAPP_PREFIX = '/fake-whatsapp';
/** The database name of the webhook's signing key when WHATSAPP_APP_SECRET is not set. */
export const WHATSAPP_SECRET_NAME = 'whatsapp-app-secret';

export function loadWhatsAppConfig(env: NodeJS.ProcessEnv): WhatsAppConfig {
  const api = (env.WHATSAPP_API || 'fake').trim();
  if (api !== 'fake' && api !== 'off' && !/^https?:\/\//.test(api)) throw new Error(`WHATSAPP_API must be fake, off or a URL, got "${api}"`);
  const real = api !== 'fake' && api !== 'off';
  if (real && (!env.WHATSAPP_PHONE_NUMBER_ID || !env.WHATSAPP_ACCESS_TOKEN || !env.WHATSAPP_APP_SECRET || !env.WHATSAPP_VERIFY_TOKEN))
    throw new Error('WHATSAPP_API set to a URL needs WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET and WHATSAPP_VERIFY_TOKEN');
  const giveUpHours = intFrom(env.WHATSAPP_GIVE_UP_HOURS, 24, 'WHATSAPP_GIVE_UP_HOURS');
  if (giveUpHours < 1) throw new Error(`WHATSAPP_GIVE_UP_HOURS must be at least 1, got "${env.WHATSAPP_GIVE_UP_HOURS}"`);
  return {
    api,
    graphVersion: env.WHATSAPP_GRAPH_VERSION || 'v21.0',
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID || FAKE_WHATSAPP.phoneNumberId,
    accessToken: env.WHATSAPP_ACCESS_TOKEN || FAKE_WHATSAPP.accessToken,
    appSecret: env.WHATSAPP_APP_SECRET || undefined,
    verifyToken: env.WHATSAPP_VERIFY_TOKEN || FAKE_WHATSAPP.verifyToken,
    retrySeconds: Math.max(1, intFrom(env.WHATSAPP_RETRY_SECONDS, 30, 'WHATSAPP_RETRY_SECONDS')),
    giveUpHours,
    quietHours: !/^(off|false|0|no)$/i.test((env.WHATSAPP_QUIET_HOURS ?? 'on').trim()),
  };
}
