export * from './define';
export * from './design';
export * from './errors';
export * from './load';
export * from './schema';
