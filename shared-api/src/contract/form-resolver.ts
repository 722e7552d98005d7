import type { z } from 'zod';
import { issueRule } from './schemas';

type FieldIssue = { type: string; message: string };
type Resolved<S extends z.ZodType> = { values: z.output<S>; errors: Record<string, never> } | { values: Record<string, never>; errors: Record<string, FieldIssue> };

/** A react-hook-form resolver on a contract schema: a form checks the server's rules, in the server's words. */
export const formResolver =
  <S extends z.ZodType>(schema: S) =>
  async (values: z.input<S>): Promise<Resolved<S>> => {
    const result = schema.safeParse(values);
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldIssue> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      // `type` names the rule broken (the contract's rule id, else zod's code): a form says it in its own language.
      if (field && !errors[field]) errors[field] = { type: issueRule(issue), message: issue.message };
    }
    return { values: {}, errors };
  };
