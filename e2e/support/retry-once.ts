// A browser journey that fails once is run again with its first failure printed: a timing flake on a loaded
// 2-core CI machine must not hide the run's result, and a real defect fails both tries.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
