export * from './answer-block';
export * from './collapse';
export * from './format';
export * from './grade';
export * from './levels';
export * from './outcome';
export * from './self-check';
