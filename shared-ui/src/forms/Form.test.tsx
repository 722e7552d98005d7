import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { renderThemed } from '../test/render';
import { Field, Input, Select } from './Form';

describe('Field', () => {
  it('labels the control and wires the error with aria-describedby and aria-invalid', () => {
    renderThemed(
      <Field label="Email" htmlFor="email" error="Please enter a valid email">
        <Input id="email" type="email" />
      </Field>,
    );
    const input = screen.getByLabelText('Email');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Please enter a valid email');
  });

  it('describes by hint, keeps the caller’s own description, and is valid without error', () => {
    renderThemed(
      <>
        <p id="own">Used for the receipt.</p>
        <Field label="Phone" htmlFor="phone" hint="10 to 11 digits">
          <Input aria-describedby="own" />
        </Field>
      </>,
    );
    const input = screen.getByLabelText('Phone');
    expect(input).toHaveAttribute('id', 'phone');
    expect(input).not.toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Used for the receipt. 10 to 11 digits');
  });

  it('works with Select and passes user input through', async () => {
    const onChange = jest.fn();
    renderThemed(
      <Field label="School" htmlFor="school">
        <Select id="school" defaultValue="" onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose</option>
          <option value="Seri Ilmu International">Seri Ilmu International</option>
        </Select>
      </Field>,
    );
    await userEvent.selectOptions(screen.getByLabelText('School'), 'Seri Ilmu International');
    expect(onChange).toHaveBeenCalledWith('Seri Ilmu International');
  });

  it('has no axe violations with an error shown', async () => {
    const { container } = renderThemed(
      <Field label="Name" htmlFor="name" error="Name is required" hint="As on the ID">
        <Input id="name" />
      </Field>,
    );
    expect(await axe(container)).toHaveNoViolations();
  });
});
