-- The staff's private calendar subscription (issue 15): one feed URL per staff account. The URL's token is 32 random
-- bytes, stored only as its SHA-256; regenerating replaces the hash (the old URL stops working at once), turning the
-- feed off deletes the row.
CREATE TABLE calendar_feeds (
  user_id    integer PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
