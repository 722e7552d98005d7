import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { brand, removeToken, setToken } from 'shared-api';
import { AppThemeProvider } from 'shared-ui';
import { Header } from './Header';

const renderHeader = () =>
  render(
    <AppThemeProvider>
      <MemoryRouter>
        <Header />
      </MemoryRouter>
    </AppThemeProvider>,
  );

describe('Header', () => {
  it('shows the logo linking home, the title text and the Login link to /login', () => {
    renderHeader();
    expect(screen.getByRole('link', { name: `${brand.productName} home` })).toHaveAttribute('href', '/');
    expect(screen.getByText(brand.title)).toBeInTheDocument();
    // Mobile first: hidden until the desktop media query applies (jsdom applies none; the e2e test checks both).
    expect(screen.getByText('Login').closest('a')).toHaveAttribute('href', '/login');
  });

  it('offers staff who are signed in their dashboard instead of the login', () => {
    setToken('a-staff-token');
    try {
      renderHeader();
      expect(screen.getByText('Dashboard').closest('a')).toHaveAttribute('href', '/secured/dashboard');
      expect(screen.queryByText('Login')).not.toBeInTheDocument();
    } finally {
      removeToken();
    }
  });
});
