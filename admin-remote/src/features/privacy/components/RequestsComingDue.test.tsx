import { screen, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { http, HttpResponse } from 'msw';
import { todayInMY } from 'shared-api';
import { requestDueOn } from 'shared-api/contract';
import { axe } from '../../../test/axe';
import { issueToken } from '../../../test/db';
import { API } from '../../../test/handlers';
import { server, setupMswServer } from '../../../test/server';
import { renderAdminApp } from '../../../test/render';

setupMswServer();

// Issue 28: the dashboard shows PDPA access and correction requests coming due (from the request log's API).
const daysAgo = (days: number) => {
  const d = new Date(`${todayInMY()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};
const request = (id: number, kind: 'access' | 'correction', person: string, receivedOn: string) => ({
  id,
  kind,
  personEmail: person.includes('@') ? person : null,
  personPhone: person.includes('@') ? null : person,
  receivedOn,
  dueOn: requestDueOn(receivedOn, false),
  extendedAt: null,
  handledBy: 'staff@example.com',
  answeredAt: null,
  note: '',
});

describe('requests coming due on the dashboard', () => {
  beforeEach(() => Cookies.set('token', issueToken(1), { path: '/' }));

  it('lists open requests due within a week, saying which are overdue', async () => {
    let asked = '';
    server.use(
      http.get(`${API}/staff/privacy/requests`, ({ request: req }) => {
        asked = new URL(req.url).search;
        return HttpResponse.json({ success: true, data: { requests: [request(1, 'correction', '0123456789', daysAgo(25)), request(2, 'access', 'aisyah@example.com', daysAgo(18))] }, message: '2' });
      }),
    );
    const { container } = renderAdminApp('/secured/dashboard');
    const panel = await screen.findByRole('region', { name: 'Privacy requests coming due' });
    const items = await within(panel).findAllByRole('listitem');
    expect(asked).toBe('?dueWithinDays=7');
    expect(items[0]).toHaveTextContent(/^Correction request from 012-345 6789: received .+, overdue since .+$/);
    expect(items[1]).toHaveTextContent(/^Access request from aisyah@example\.com: received .+, due .+$/);
    expect(await axe(container)).toHaveNoViolations();
  });

  it('says when nothing is due', async () => {
    renderAdminApp('/secured/dashboard');
    const panel = await screen.findByRole('region', { name: 'Privacy requests coming due' });
    expect(await within(panel).findByText('No access or correction request is due in the next 7 days.')).toBeInTheDocument();
  });
});
