// Several start times over a date range: the preview and the one-request creation (POST /slot/add-many).
import { api, type Envelope } from 'shared-api';
import { slotPlanCreatedSchema, slotPlanSchema, type SlotPlan, type SlotPlanBody, type SlotPlanCreated } from 'shared-api/slot-planning';

export const slotPlanningApi = api.injectEndpoints({
  endpoints: (build) => ({
    previewSlotPlan: build.mutation<SlotPlan, SlotPlanBody>({
      query: (body) => ({ url: '/slot/add-many/preview', method: 'POST', body }),
      transformResponse: (response: Envelope<unknown>) => slotPlanSchema.parse(response.data),
    }),
    addSlotPlan: build.mutation<SlotPlanCreated, SlotPlanBody>({
      query: (body) => ({ url: '/slot/add-many', method: 'POST', body }),
      transformResponse: (response: Envelope<unknown>) => slotPlanCreatedSchema.parse(response.data),
    }),
  }),
});

export const { usePreviewSlotPlanMutation, useAddSlotPlanMutation } = slotPlanningApi;

/** The refusals a 409 from add-many carries (nothing was created), or null for any other failure. */
export function refusedPlan(error: unknown): SlotPlan | null {
  const data = (error as { status?: unknown; data?: { data?: unknown } } | undefined)?.data?.data;
  const parsed = slotPlanSchema.safeParse(data);
  return (error as { status?: unknown })?.status === 409 && parsed.success ? parsed.data : null;
}
