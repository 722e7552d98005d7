import { detailText } from './format';
import { auditCsvHeader } from './csv';

describe('audit words from the admin.audit catalogue', () => {
  it('counts created slots with ICU plurals, the times only when given', () => {
    expect(detailText({ action: 'slot_created', detail: { count: 1, fromDate: '2026-03-02', toDate: '2026-03-02' } })).toBe(
      '1 slot, 2 Mar 2026',
    );
    expect(detailText({ action: 'slot_created', detail: { count: 1200, fromDate: '2026-03-02', toDate: '2026-06-30', startTimes: ['08:30'] } })).toBe(
      '1200 slots, 2 Mar – 30 Jun 2026 at 8:30 AM',
    );
  });

  it('names the CSV columns', () => {
    expect(auditCsvHeader()).toEqual(['Time (GMT+8)', 'Who', 'Action', 'Target', 'Detail', 'From']);
  });
});
