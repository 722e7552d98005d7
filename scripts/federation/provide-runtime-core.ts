// The remotes' production builds leave the federation runtime core to the page (the shell provides its own
// copy: one runtime instead of two on the first load). A remote's standalone page loads this file first.
import * as runtimeCore from '@module-federation/runtime-core';

const global = globalThis as unknown as { _FEDERATION_RUNTIME_CORE?: unknown };
global._FEDERATION_RUNTIME_CORE ??= runtimeCore;
