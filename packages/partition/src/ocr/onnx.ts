import { availableParallelism } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import type { InferenceSession } from 'onnxruntime-node';

/**
 * ONNX Runtime, loaded only when a model is first used (it is a large native module) and shared by the
 * OCR engine and user-supplied layout models.
 */
export type OnnxRuntime = typeof import('onnxruntime-node');

let runtime: Promise<OnnxRuntime> | undefined;

export function loadOnnxRuntime(): Promise<OnnxRuntime> {
  runtime ??= import('onnxruntime-node').then((module) => (module.default ?? module) as OnnxRuntime);
  return runtime;
}

/**
 * Threads per model call. In a worker thread of the page pool each thread already owns a core, so one
 * intra-op thread avoids oversubscription; on the main thread the runtime may use every core.
 * DOCSVC_ONNX_THREADS overrides both.
 */
export function onnxThreads(): number {
  const configured = Number.parseInt(process.env.DOCSVC_ONNX_THREADS ?? '', 10);
  if (Number.isFinite(configured) && configured > 0) return configured;
  return isMainThread ? Math.max(1, availableParallelism()) : 1;
}

export async function createSession(source: string | Uint8Array): Promise<InferenceSession> {
  const ort = await loadOnnxRuntime();
  const options: InferenceSession.SessionOptions = {
    intraOpNumThreads: onnxThreads(),
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
  };
  return typeof source === 'string'
    ? ort.InferenceSession.create(source, options)
    : ort.InferenceSession.create(source, options);
}
