export * from './instances';
export * from './outcome';
export * from './registry';
export * from './task';
