import { render } from '@testing-library/react';
import { Email } from './Email';

describe('Email', () => {
  it('may wrap only after the @ and before a dot, and reads as the address', () => {
    const { container } = render(<Email address="nurul.huda@example.com.my" />);
    expect(container.textContent).toBe('nurul.huda@example.com.my');
    expect(container.innerHTML).toBe('<span>nurul<wbr>.huda@<wbr>example<wbr>.com<wbr>.my</span>');
  });
});
