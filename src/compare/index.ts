export * from './baseline';
export * from './compare';
export * from './holm';
export * from './load';
export * from './retention-difference';
