export * from './answer-block';
export * from './budget';
