// The fair waitlist for staff (issue 26): the Waitlist page's list and the dashboard's counts.
export { Waitlist } from './components/Waitlist';
export { WaitlistCounts } from './components/WaitlistCounts';
