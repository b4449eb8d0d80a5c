export * from './build';
export * from './format';
export * from './junit';
export * from './markdown';
export * from './write';
