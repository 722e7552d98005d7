import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axe } from '../test/axe';
import { renderThemed } from '../test/render';
import { createRef } from 'react';
import { Choice, ChoiceGroup } from './Choice';
import { Field, Input, InputField, Select, SelectField, TextAreaField } from './Form';
import { FormOutcomeMessage } from './FormMessage';

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

describe('InputField, SelectField and TextAreaField', () => {
  it('are a Field and its control in one: labelled by id, the error wired, the ref and handlers passed to the control', async () => {
    const ref = createRef<HTMLInputElement>();
    const onChange = jest.fn();
    const { container } = renderThemed(
      <>
        <InputField
          label="Email"
          id="email"
          error="required"
          type="email"
          name="email"
          ref={ref}
          onChange={onChange}
        />
        <SelectField label="Kind" id="kind" defaultValue="access">
          <option value="access">Access</option>
          <option value="correction">Correction</option>
        </SelectField>
        <TextAreaField label="What happened" id="what" hint="In a sentence or two" />
      </>,
    );
    const email = screen.getByLabelText('Email');
    expect(email).toBe(ref.current);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('required');
    await userEvent.type(email, 'a');
    expect(onChange).toHaveBeenCalled();
    expect(screen.getByLabelText('Kind')).toHaveValue('access');
    expect(screen.getByLabelText('What happened').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('What happened')).toHaveAccessibleDescription('In a sentence or two');
    expect(await axe(container)).toHaveNoViolations();
  });
});

describe('FormOutcomeMessage', () => {
  it('says nothing before a sending, a failure as an alert, a success as a status', () => {
    const { rerender } = renderThemed(<FormOutcomeMessage outcome={null} />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<FormOutcomeMessage outcome={{ failed: true, text: 'The email or password is incorrect.' }} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The email or password is incorrect.');
    rerender(<FormOutcomeMessage outcome={{ failed: false, text: 'Login successful!' }} />);
    expect(screen.getByRole('status')).toHaveTextContent('Login successful!');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('Choice', () => {
  it('labels a checkbox or a radio by its words, under its group’s legend', async () => {
    const { container } = renderThemed(
      <ChoiceGroup>
        <legend>Weekdays</legend>
        <Choice>
          <input type="checkbox" defaultChecked />
          Monday
        </Choice>
      </ChoiceGroup>,
    );
    expect(screen.getByRole('group', { name: 'Weekdays' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Monday'));
    expect(screen.getByRole('checkbox', { name: 'Monday' })).not.toBeChecked();
    expect(await axe(container)).toHaveNoViolations();
  });
});
