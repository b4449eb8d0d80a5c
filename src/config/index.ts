export * from './define';
export * from './errors';
export * from './load';
export * from './schema';
