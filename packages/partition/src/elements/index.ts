export * from './element.js';
export * from './element-types.js';
export * from './hierarchy.js';
export * from './ids.js';
export * from './metadata.js';
export * from './serialize.js';
export * from './table-html.js';
