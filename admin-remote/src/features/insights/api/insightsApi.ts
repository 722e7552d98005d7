// The Insights page's figures (issue 41): one GET per chart, injected into the one shared API.
import { api, type Envelope } from 'shared-api';
import type { Attendance, CheckoutFunnel, FillRate, Money, PopularTimes, WaitlistInsights } from 'shared-api/contract';

/** What each chart's call answers (the server's contract, shared-api/src/contract/insights.ts). */
export type InsightsData = {
  'fill-rate': FillRate;
  'popular-times': PopularTimes;
  waitlist: WaitlistInsights;
  checkout: CheckoutFunnel;
  attendance: Attendance;
  money: Money;
};
export type ChartId = keyof InsightsData;
export const CHART_IDS: ChartId[] = ['fill-rate', 'popular-times', 'waitlist', 'checkout', 'attendance', 'money'];

/** A period of GMT+8 days (both inclusive) and a school, or all schools. */
export type InsightsFilter = { from: string; to: string; school?: string };

/** The query string the server takes: no school means all. */
export function insightsSearch({ from, to, school }: InsightsFilter): string {
  const params = new URLSearchParams({ from, to });
  if (school) params.set('school', school);
  return params.toString();
}

export const insightsApi = api.injectEndpoints({
  endpoints: (build) => ({
    insightsChart: build.query<InsightsData[ChartId], InsightsFilter & { chart: ChartId }>({
      query: ({ chart, ...filter }) => `/staff/insights/${chart}?${insightsSearch(filter)}`,
      transformResponse: (response: Envelope<InsightsData[ChartId]>) => response.data,
    }),
  }),
});

export const { useInsightsChartQuery } = insightsApi;
