export * from './baseline';
export * from './cell';
export * from './fit';
export * from './gate';
export * from './report';
export * from './subject';
export * from './trial';
