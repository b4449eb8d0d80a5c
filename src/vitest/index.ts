export * from './checks';
export * from './gates';
export * from './matchers';
export * from './meta';
export * from './names';
export * from './sweep';
