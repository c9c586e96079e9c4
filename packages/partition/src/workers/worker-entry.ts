/**
 * The entry of a worker thread module that sits beside the calling module: the compiled `.js` in a
 * build, or, when running from TypeScript sources (tests, tsx), a small bootstrap that loads the `.ts`
 * worker through tsx's `tsImport` (loader flags in a worker's execArgv do not apply to its entry module
 * on Node 20).
 *
 * @param callerUrl `import.meta.url` of the module that starts the worker
 * @param workerName the worker module's file name without extension, e.g. `pdf-page-worker`
 */
export function workerEntryUrl(callerUrl: string, workerName: string): string {
  if (!callerUrl.endsWith('.ts')) return new URL(`./${workerName}.js`, callerUrl).href;
  const worker = new URL(`./${workerName}.ts`, callerUrl).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = [
    `const { tsImport } = await import(${JSON.stringify(tsx)});`,
    `const worker = await tsImport(${JSON.stringify(worker)}, ${JSON.stringify(worker)});`,
    'export default worker.default;',
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(code)}`;
}
