import { HoldMessage } from 'shared-api/schemas';
import en from './locales/en.json';

it('says the check of the connection in the contract’s English words', () => {
  expect(en.checking).toBe(HoldMessage.checking);
});
