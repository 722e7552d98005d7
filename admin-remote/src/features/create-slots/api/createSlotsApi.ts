// Slot creation, injected into the one shared API; the dialog refreshes the lists itself after its success panel.
import { api, type CreateSlotBody, type Envelope } from 'shared-api';

export const createSlotsApi = api.injectEndpoints({
  endpoints: (build) => ({
    addSlot: build.mutation<unknown, CreateSlotBody>({
      query: (body) => ({ url: '/slot/add', method: 'POST', body }),
      transformResponse: (response: Envelope<unknown>) => response.data,
    }),
  }),
});

export const { useAddSlotMutation } = createSlotsApi;
