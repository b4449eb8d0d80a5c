export * from './design';
export * from './information';
export * from './sweep';
export * from './task-answerer';
