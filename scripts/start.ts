// `npm start`: builds what is missing, then serves the API and the three production bundles until Ctrl-C.
import { portsFromEnv, startProduct, type Product } from './product';

async function main() {
  const ports = portsFromEnv();
  // Filled once started; the signal handlers are installed before, so an early Ctrl-C still stops what exists.
  const running: { product?: Product } = {};
  let stopping = false;

  const shutdown = async (signal: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the API and the bundle servers...`);
    await running.product?.stop();
    console.log('Stopped.');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));

  const product = await startProduct({ ports, verboseApi: process.env.VERBOSE_API === '1' });
  running.product = product;
  if (stopping) {
    await product.stop();
    return;
  }
  void product.apiExited.then((code) => {
    if (!stopping) {
      console.error(`The API exited unexpectedly (code ${code}).`);
      void shutdown('API exit', 1);
    }
  });

  const { urls } = product;
  console.log(
    [
      '',
      `  Booking page (shell)   ${urls.shell}/`,
      `  Staff login            ${urls.shell}/login`,
      `  booking-remote         ${urls.booking}/   (remoteEntry.js, standalone page)`,
      `  admin-remote           ${urls.admin}/   (remoteEntry.js, standalone page)`,
      `  API                    ${urls.api}/health`,
      `  API reference          ${urls.api}/docs   (OpenAPI)`,
      '',
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
