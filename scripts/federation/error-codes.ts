// The bundles' @module-federation/error-codes: the same codes and messages (code, arguments, docs link, original
// error), without the English descriptions, which cost ~1 KB gzip on every first load and show only in the console.
// A code the runtime starts to import and this file lacks fails the build ("export ... was not found").
export const RUNTIME_001 = 'RUNTIME-001';
export const RUNTIME_002 = 'RUNTIME-002';
export const RUNTIME_003 = 'RUNTIME-003';
export const RUNTIME_004 = 'RUNTIME-004';
export const RUNTIME_005 = 'RUNTIME-005';
export const RUNTIME_006 = 'RUNTIME-006';
export const RUNTIME_007 = 'RUNTIME-007';
export const RUNTIME_008 = 'RUNTIME-008';
export const RUNTIME_009 = 'RUNTIME-009';
export const RUNTIME_010 = 'RUNTIME-010';
export const RUNTIME_011 = 'RUNTIME-011';
export const RUNTIME_012 = 'RUNTIME-012';
export const RUNTIME_013 = 'RUNTIME-013';
export const RUNTIME_014 = 'RUNTIME-014';
export const RUNTIME_015 = 'RUNTIME-015';
export const TYPE_001 = 'TYPE-001';
export const BUILD_001 = 'BUILD-001';
export const BUILD_002 = 'BUILD-002';

type DescMap = Record<string, string>;
export const runtimeDescMap: DescMap = {};
export const typeDescMap: DescMap = {};
export const buildDescMap: DescMap = {};
export const errorDescMap: DescMap = {};

export function getShortErrorMsg(errorCode: string, descMap: DescMap, args?: unknown, originalErrorMsg?: string): string {
  const docs = `https://module-federation.io/guide/troubleshooting/${errorCode.split('-')[0].toLowerCase()}#${errorCode.toLowerCase()}`;
  return [
    `${descMap[errorCode] ?? 'Module federation error'} #${errorCode}`,
    ...(args ? [`args: ${JSON.stringify(args)}`] : []),
    `View the docs to see how to solve: ${docs}`,
    ...(originalErrorMsg ? [`Original Error Message:\n ${originalErrorMsg}`] : []),
  ].join('\n');
}
