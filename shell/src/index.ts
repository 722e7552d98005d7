// The entry imports nothing shared (the federation runtime sets up the share scope before React loads). It starts
// the page's remote first, so that the remote downloads while the shell's bootstrap chunk is being evaluated.
import { startRemotes } from './federation/startup';

const startup = startRemotes(window.location.pathname);
void startup.pageRemoteUnderWay.then(() => import('./bootstrap')).then(({ start }) => start(startup));
