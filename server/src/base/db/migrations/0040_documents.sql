-- Issue 40: the visit's documents, uploaded ahead through the manage link (server/src/documents/).
-- A file's bytes live in the object store under a random key (never a name, email or reference); this row says whose
-- it is (the booking's payment, the child's place in it, the document's kind), what it is and its SHA-256.
CREATE TABLE document_files (
  id             uuid PRIMARY KEY,
  payment_id     text NOT NULL REFERENCES payments(id),
  -- The child's place in the booking (1 for a booking of one child; payment_children.position otherwise).
  child_position smallint NOT NULL CHECK (child_position BETWEEN 1 AND 4),
  kind           text NOT NULL CHECK (kind IN ('guardianId', 'birthCertificate', 'immunisation', 'academicRecords')),
  object_key     text NOT NULL UNIQUE,
  content_type   text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'application/pdf')),
  -- As stored (an image after re-encoding): at most 10 MB.
  size_bytes     integer NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 10485760),
  sha256         text NOT NULL,
  -- The name the parent's file had, sanitised, for the download's name.
  original_name  text NOT NULL,
  uploaded_by    text NOT NULL,
  uploaded_at    timestamptz NOT NULL DEFAULT now(),
  -- Replaced or removed: the object is deleted from the store, then the row (a failed delete is retried by retention).
  removed_at     timestamptz
);
-- One live file per child and kind.
CREATE UNIQUE INDEX document_files_live_key ON document_files (payment_id, child_position, kind) WHERE removed_at IS NULL;

-- What staff noted of a document: they checked the uploaded file, or saw the paper at the desk.
CREATE TABLE document_marks (
  payment_id     text NOT NULL REFERENCES payments(id),
  child_position smallint NOT NULL CHECK (child_position BETWEEN 1 AND 4),
  kind           text NOT NULL CHECK (kind IN ('guardianId', 'birthCertificate', 'immunisation', 'academicRecords')),
  mark           text NOT NULL CHECK (mark IN ('checked', 'seenOnPaper')),
  marked_by      text NOT NULL,
  marked_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (payment_id, child_position, kind)
);

-- The parent ticked the school's registration form as done (one per booking; un-ticking deletes the row).
CREATE TABLE registration_form_ticks (
  payment_id text PRIMARY KEY REFERENCES payments(id),
  done_at    timestamptz NOT NULL DEFAULT now()
);

-- The new actions in the audit trail (extended from the live CHECK, as 0033 does).
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
  FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([a-z_]+)''', 'g') AS m
  WHERE c.conrelid = 'audit_log'::regclass AND c.conname = 'audit_log_action_check';
  allowed := allowed || ARRAY['document_downloaded', 'document_marked'];
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_action_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_action_check CHECK (action IN (%s))',
    (SELECT string_agg(DISTINCT quote_literal(a), ', ') FROM unnest(allowed) AS a));
END $$;
