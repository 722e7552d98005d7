-- Payments (one per checkout session), gateway events (each recorded once), the mail outbox and the sandbox gateway's own store.
CREATE TABLE payments (
  id                  text PRIMARY KEY,
  reference           text NOT NULL UNIQUE,
  slot_id             integer NOT NULL REFERENCES slots(id),
  status              text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled', 'refund_pending', 'refunded')),
  amount_sen          integer NOT NULL CHECK (amount_sen >= 0),
  currency            text NOT NULL DEFAULT 'MYR',
  method              text,
  visitor_name        text NOT NULL,
  visitor_email       text NOT NULL,
  visitor_contact_no  text NOT NULL,
  selected_school     text NOT NULL,
  -- The hold this payment books with (the server took or extended it; the slot stores only its SHA-256).
  hold_token          text NOT NULL,
  gateway             text NOT NULL,
  gateway_session_id  text,
  checkout_url        text,
  session_expires_at  timestamptz NOT NULL,
  failure_reason      text,
  refund_reason       text,
  gateway_refund_id   text,
  completed_at        timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX payments_gateway_session_uq ON payments (gateway, gateway_session_id) WHERE gateway_session_id IS NOT NULL;
CREATE INDEX payments_open_idx ON payments (created_at) WHERE status IN ('pending', 'processing', 'refund_pending');
CREATE INDEX payments_slot_idx ON payments (slot_id, visitor_email);

-- Each gateway event is applied once: a replay hits the unique key and is acknowledged without effect.
CREATE TABLE payment_events (
  id          serial PRIMARY KEY,
  gateway     text NOT NULL,
  event_id    text NOT NULL,
  payment_id  text REFERENCES payments(id),
  kind        text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (gateway, event_id)
);

-- Written in the booking transaction; a worker sends and marks each row.
CREATE TABLE mail_outbox (
  id              serial PRIMARY KEY,
  payment_id      text NOT NULL REFERENCES payments(id),
  kind            text NOT NULL CHECK (kind IN ('visitor_confirmation', 'admin_notification')),
  recipient       text NOT NULL,
  subject         text NOT NULL,
  text_body       text NOT NULL,
  html_body       text NOT NULL,
  ics             text,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until   timestamptz,
  last_error      text,
  timed_out       boolean NOT NULL DEFAULT false,
  message_id      text NOT NULL,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (payment_id, kind)
);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status IN ('pending', 'sending');

-- The sandbox gateway's own records (what a real gateway keeps on its side).
CREATE TABLE sandbox_sessions (
  id              text PRIMARY KEY,
  reference       text NOT NULL,
  amount_sen      integer NOT NULL,
  description     text NOT NULL,
  customer_email  text NOT NULL,
  allowed_methods text NOT NULL,
  status          text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'paid', 'failed', 'cancelled', 'refunded')),
  method          text,
  expires_at      timestamptz NOT NULL,
  success_url     text NOT NULL,
  failure_url     text NOT NULL,
  cancel_url      text NOT NULL,
  callback_url    text NOT NULL,
  paid_at         timestamptz,
  refunded_at     timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
