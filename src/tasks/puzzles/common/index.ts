export * from './collapse';
export * from './outcome';
