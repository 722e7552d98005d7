import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { brand } from 'shared-api';
import { AppThemeProvider } from 'shared-ui';
import { Header } from './Header';

describe('Header', () => {
  it('shows the logo linking home, the title text and the Login link to /login', () => {
    render(
      <AppThemeProvider>
        <MemoryRouter>
          <Header />
        </MemoryRouter>
      </AppThemeProvider>,
    );
    expect(screen.getByRole('link', { name: `${brand.productName} home` })).toHaveAttribute('href', '/');
    expect(screen.getByText(brand.title)).toBeInTheDocument();
    // Mobile first: hidden until the desktop media query applies (jsdom applies none; the e2e test checks both).
    expect(screen.getByText('Login').closest('a')).toHaveAttribute('href', '/login');
  });
});
