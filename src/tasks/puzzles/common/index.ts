export * from './answer-block';
export * from './collapse';
export * from './grade';
export * from './outcome';
