export * from './design';
export * from './information';
export * from './task-answerer';
