// The contract shared by the browser bundles and the server.
export * from './constants';
export * from './codes';
export * from './messages';
export * from './email';
export * from './schemas';
export * from './brand';
export * from './time';
