-- Issue 38: WhatsApp messages to parents (Cloud API templates), one row per message, sent once by the `whatsapp` queue.
CREATE TABLE whatsapp_messages (
  id bigserial PRIMARY KEY,
  payment_id text,
  waitlist_offer_id bigint,
  kind text NOT NULL,
  to_e164 text NOT NULL,
  locale text NOT NULL CHECK (locale IN ('en', 'ms', 'zh')),
  template text NOT NULL,
  request_body jsonb NOT NULL,
  dedupe_key text NOT NULL UNIQUE,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'delivered', 'read', 'failed')),
  -- The platform's message id once it accepted the message: a row with one is never sent again.
  wamid text UNIQUE,
  error_code text,
  error_title text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  -- The platform's timestamp of the latest status applied (statuses arrive duplicated and out of order).
  state_at timestamptz,
  -- Not before this (07:00-22:00 GMT+8 only).
  send_after timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX whatsapp_messages_payment ON whatsapp_messages (payment_id);
CREATE INDEX whatsapp_messages_unsent ON whatsapp_messages (id) WHERE state IN ('queued', 'sending');

-- Each status the webhook brought, once per (wamid, status).
CREATE TABLE whatsapp_events (
  id bigserial PRIMARY KEY,
  wamid text NOT NULL,
  status text NOT NULL,
  platform_at timestamptz NOT NULL,
  raw jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (wamid, status)
);

-- A parent's reply (a button's payload or text), once per platform message id.
CREATE TABLE whatsapp_replies (
  id bigserial PRIMARY KEY,
  message_id text NOT NULL UNIQUE,
  from_e164 text NOT NULL,
  payload text,
  text text,
  context_wamid text,
  received_at timestamptz NOT NULL DEFAULT now(),
  handled boolean NOT NULL DEFAULT false
);
