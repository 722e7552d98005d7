import type { Resolver } from 'react-hook-form';
import type { VisitorDetails, VisitorDetailsInput } from 'shared-api';
import { formResolver, visitorDetailsSchema } from 'shared-api/schemas';

/** react-hook-form resolver on the contract's schema: the server's rules and words; an error's `type` names its rule. */
export const visitorResolver: Resolver<VisitorDetailsInput, unknown, VisitorDetails> = formResolver(visitorDetailsSchema);
