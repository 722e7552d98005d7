import { z } from 'zod';

// zod's JIT builds parsers with `new Function`, and its probe for that is reported as a Content-Security-Policy
// violation on the bundles' pages (no 'unsafe-eval'), even though zod catches it: the browser parses without it.
z.config({ jitless: true });
