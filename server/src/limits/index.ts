// server/src/limits's public surface: the only module other domains import (eslint.config.mjs, serverHouse).
export { guessLimit, refuseUnknownToken } from './guess-limit';
export { hitCounter, peekCounter, resetCounter, sweepCounters } from './rate-counter';
